// Guarded deletes: a kind whose deletion destroys data (a dataset's events) names the
// engine-only attribute that allows it. Deleting or replacing such an object is refused,
// with the reason in words, unless that attribute is true.
import type { ResourceKind, Values } from "../resources";

/** Whether the values allow destroying the object (always, for unguarded kinds). */
export function destroyAllowed(kind: ResourceKind, values: Values | undefined): boolean {
  return !kind.guard || values?.[kind.guard.attribute] === true;
}

function label(kind: ResourceKind, values: Values | undefined, id: string | undefined): string {
  return `${kind.typeName} "${String(values?.name ?? id ?? "")}"`;
}

/** Why a replacement is refused; undefined when it is allowed. */
export function replacementRefusal(kind: ResourceKind, values: Values, why: readonly string[]): string | undefined {
  if (destroyAllowed(kind, values)) return undefined;
  const guard = kind.guard!;
  return `${why.join("; ")}, and replacing it ${guard.consequence}; set ${guard.attribute} = true to allow it`;
}

/**
 * Why a delete is refused; undefined when it is allowed. `remedy` is the engine's way out
 * besides setting the attribute (e.g. `ods state rm`), in words.
 */
export function deletionRefusal(kind: ResourceKind, engineSettings: Values | undefined, values: Values | undefined, id: string | undefined, remedy: string): string | undefined {
  if (destroyAllowed(kind, engineSettings)) return undefined;
  const guard = kind.guard!;
  return `deleting ${label(kind, values, id)} ${guard.consequence}; set ${guard.attribute} = true and apply before removing it${remedy}`;
}
