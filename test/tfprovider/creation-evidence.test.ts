// The provider's record of what it created (creation-evidence.ts), read by the next
// provider process from its journal: an object counts as the provider's own until
// Terraform has it (seen in a state, or handed over at Shutdown); a create refused for
// sure speaks for nothing; a lost answer speaks for the key; a grown journal is compacted
// without changing any of that.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { CreationEvidence, creationKey } from "../../src/tfprovider/creation-evidence";
import { tempDir } from "../emulator/helpers";

const key = creationKey("ods_role", '["readers"]');
const other = creationKey("ods_role", '["writers"]');

function journal(): string {
  return path.join(tempDir("ods-evidence-"), "creations-x.log");
}

describe("the provider's creation evidence", () => {
  it("holds an object its create made until Terraform shows it in a state, across processes", () => {
    const file = journal();
    const first = new CreationEvidence(file);
    first.intent(key);
    first.made(key, "rol_1");
    // A killed Terraform: the next process reads the journal.
    const next = new CreationEvidence(file);
    expect(next.holds(key, "rol_1")).toBe(true);
    expect(next.holds(key, "rol_2")).toBe(false);
    expect(next.holds(other, "rol_1")).toBe(false);
    next.seen("rol_1");
    expect(new CreationEvidence(file).holds(key, "rol_1")).toBe(false);
  });

  it("hands its objects over at Shutdown; a refused create speaks for nothing; a lost answer for its key", () => {
    const file = journal();
    const run = new CreationEvidence(file);
    run.intent(key);
    run.made(key, "rol_1");
    run.handOver();
    expect(new CreationEvidence(file).holds(key, "rol_1")).toBe(false);

    const refused = new CreationEvidence(file);
    refused.intent(other);
    refused.failed(other);
    expect(new CreationEvidence(file).holds(other, "rol_9")).toBe(false);

    const lost = new CreationEvidence(file);
    lost.intent(other);
    // The answer never came: whatever object has the key may be the one it made.
    expect(new CreationEvidence(file).holds(other, "rol_9")).toBe(true);
  });

  it("keeps the same answers after compacting a grown journal", () => {
    const file = journal();
    const w = new CreationEvidence(file);
    w.intent(key);
    w.made(key, "rol_kept");
    w.intent(other);
    w.failed(other);
    for (let i = 0; i < 4000; i++) {
      w.intent(creationKey("ods_role", `["r${i}"]`));
      w.made(creationKey("ods_role", `["r${i}"]`), `rol_${i}`);
      w.seen(`rol_${i}`);
    }
    expect(fs.statSync(file).size).toBeGreaterThan(256 * 1024);
    const read = new CreationEvidence(file);
    expect(read.holds(key, "rol_kept")).toBe(true);
    expect(read.holds(other, "rol_x")).toBe(false);
    expect(read.holds(creationKey("ods_role", '["r5"]'), "rol_5")).toBe(false);
    // Compacted on that read, and read the same way after.
    expect(fs.statSync(file).size).toBeLessThan(256 * 1024 * 2);
    const again = new CreationEvidence(file);
    expect(again.holds(key, "rol_kept")).toBe(true);
    expect(again.holds(other, "rol_x")).toBe(false);
    expect(again.holds(creationKey("ods_role", '["r5"]'), "rol_5")).toBe(false);
  });

  it("writes no natural key in the clear (it may be an e-mail address)", () => {
    const file = journal();
    const w = new CreationEvidence(file);
    const k = creationKey("ods_user", '["ada@example.com"]');
    w.intent(k);
    w.made(k, "usr_1");
    expect(fs.readFileSync(file, "utf8")).not.toContain("ada@example.com");
    expect(new CreationEvidence(file).holds(k, "usr_1")).toBe(true);
  });

  it("writes each line as it happens, while it holds the journal open and after it let go", () => {
    const file = journal();
    const w = new CreationEvidence(file);
    w.intent(key);
    // A process killed now: the next one reads the intent already.
    expect(new CreationEvidence(file).holds(key, "rol_lost")).toBe(true);
    w.made(key, "rol_1");
    w.close();
    w.intent(other);
    const next = new CreationEvidence(file);
    expect(next.holds(key, "rol_1")).toBe(true);
    expect(next.holds(key, "rol_lost")).toBe(false);
    expect(next.holds(other, "rol_any")).toBe(true);
    w.close();
  });
});
