// The provider's entry of Terraform's dependency lock file (.terraform.lock.hcl), with a
// checksum for every platform the package ships. `terraform init` from a mirror records
// only the platform it runs on; a lock file committed from Linux then has no checksum a
// Mac can verify against a zip (zh:), and `-lockfile=readonly` cannot add one. Written
// here from the package itself: the h1: of each platform's unpacked files and the zh: of
// each platform's zip, the hashes Terraform computes for them.
import * as fs from "node:fs";

export interface LockEntry {
  /** HOST/NAMESPACE/TYPE. */
  source: string;
  version: string;
  /** As `required_providers` writes it, e.g. "0.1.0"; left out when undefined. */
  constraints?: string;
  hashes: readonly string[];
}

const HEADER = '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n';

/** One `provider "SOURCE" { ... }` block, laid out as Terraform writes it (hashes sorted, deduplicated). */
export function lockBlock(entry: LockEntry): string {
  const hashes = [...new Set(entry.hashes)].sort();
  const pad = entry.constraints !== undefined ? "    " : "";
  return [
    `provider ${JSON.stringify(entry.source)} {`,
    `  version ${pad}= ${JSON.stringify(entry.version)}`,
    ...(entry.constraints !== undefined ? [`  constraints = ${JSON.stringify(entry.constraints)}`] : []),
    "  hashes = [",
    ...hashes.map((h) => `    ${JSON.stringify(h)},`),
    "  ]",
    "}",
    "",
  ].join("\n");
}

/**
 * The lock file's text with the provider's block put in: a block for the same source is
 * replaced, other providers' blocks are kept as they are.
 */
export function withLockEntry(existing: string | undefined, entry: LockEntry): string {
  const block = lockBlock(entry);
  if (existing === undefined || existing.trim() === "") return `${HEADER}\n${block}`;
  const start = existing.indexOf(`provider ${JSON.stringify(entry.source)} {`);
  if (start < 0) return `${existing.replace(/\n*$/, "\n")}\n${block}`;
  // Terraform writes each block's closing brace alone at the start of a line.
  const close = existing.indexOf("\n}", start);
  if (close < 0) throw new Error(`the lock file's block for ${entry.source} does not end; fix or delete the file`);
  const end = close + 2;
  return `${existing.slice(0, start)}${block.replace(/\n$/, "")}${existing.slice(end)}`;
}

export function writeLockFile(file: string, entry: LockEntry): void {
  const existing = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
  fs.writeFileSync(file, withLockEntry(existing, entry));
}
