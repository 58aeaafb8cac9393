// What the lifecycle needs to know from an engine's memory of an object. `ods` keeps it
// in its state file (src/reconcile/state.ts has a superset of this shape); the Terraform
// adapter derives it from Terraform's prior state.
import type { Values } from "../resources";

export interface PriorState {
  id: string;
  /** Engine-only declared values (allow_destroy, rotation settings) as last applied. */
  engineValues: Values;
  /** Salted fingerprint of each secret attribute path's declared value, as last applied. */
  secretFingerprints: Record<string, string>;
  /** Secrets the service returned once and never again (a token's secret). */
  sensitive?: Record<string, string>;
  /**
   * Set just before a rotation's call and cleared by its answer: the id being rotated.
   * Still set on the next run means the answer was lost (see rotation.ts).
   */
  rotating?: string;
  /**
   * The attributes as last stored (Terraform's state shape): the versions of write-only
   * values, and whether a credential was held in its plain form. Absent in old ods states.
   */
  attributes?: Values;
}

/** Whether the engine holds the secret that the service returned once (a token's). */
export function holdsSecret(prior: PriorState | undefined): boolean {
  return prior?.sensitive !== undefined && Object.keys(prior.sensitive).length > 0;
}
