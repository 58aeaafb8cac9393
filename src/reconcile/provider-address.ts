// Which provider configuration a state entry belongs to, written as Terraform writes it
// in its state (`provider["registry.terraform.io/ods/ods"].staging`), so that the state
// reads the same to Terraform. In the engine a configuration is `ods` or `ods.ALIAS`.
import { PROVIDER_SOURCE } from "../resources";

const ADDRESS = /^provider\["([^"]+)"\](?:\.([A-Za-z_][A-Za-z0-9_-]*))?$/;

/** `ods` -> `provider["registry.terraform.io/ods/ods"]`, `ods.b` -> `provider["..."].b`. */
export function providerAddress(key: string): string {
  const alias = key.startsWith("ods.") ? key.slice(4) : undefined;
  return `provider["${PROVIDER_SOURCE}"]${alias ? `.${alias}` : ""}`;
}

/** The configuration key of a state entry's provider address; absent means the default. */
export function providerKey(address: string | undefined): string {
  if (address === undefined || address === "") return "ods";
  const m = ADDRESS.exec(address);
  if (!m) return address; // an engine key written by an earlier version, or unknown: kept as is
  return m[2] ? `ods.${m[2]}` : "ods";
}
