// The provider's block of .terraform.lock.hcl: written as Terraform writes it, replacing
// only its own block of an existing file.
import { describe, expect, it } from "vitest";
import { withLockEntry } from "../../src/tfprovider/lock-file";

const entry = { source: "registry.terraform.io/ods/ods", version: "0.1.0", constraints: "0.1.0", hashes: ["zh:bb", "h1:aa", "zh:bb"] };

describe("withLockEntry", () => {
  it("writes a new file with the header and the hashes sorted, once each", () => {
    expect(withLockEntry(undefined, entry)).toBe(
      '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n\n' +
        'provider "registry.terraform.io/ods/ods" {\n  version     = "0.1.0"\n  constraints = "0.1.0"\n  hashes = [\n    "h1:aa",\n    "zh:bb",\n  ]\n}\n',
    );
  });

  it("replaces its own block and keeps the other providers'", () => {
    const other = 'provider "registry.terraform.io/hashicorp/null" {\n  version = "3.2.0"\n  hashes = [\n    "h1:nn",\n  ]\n}\n';
    const old = withLockEntry(`# header\n\n${other}`, { ...entry, version: "0.0.9", hashes: ["h1:old"] });
    const updated = withLockEntry(old, entry);
    expect(updated).toContain(other);
    expect(updated).toContain('"h1:aa"');
    expect(updated).not.toContain("h1:old");
    expect(updated.match(/provider "registry.terraform.io\/ods\/ods"/g)).toHaveLength(1);
  });
});
