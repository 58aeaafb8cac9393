// The one representation of "known only after apply" in model values, shared by both
// engines: `ods plan` resolves references to it, and the Terraform adapter translates the
// protocol's own unknown marker into it at the border (src/tfprovider/ods-provider.ts).
// Validation lets it pass (its value is checked once known).

/** Marker for a value that is known only after apply. */
export const UNKNOWN: unique symbol = Symbol("known after apply");
export type Unknown = typeof UNKNOWN;

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}
