import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LockError, STATE_FORMAT_VERSION, acquireLock, emptyState, readState, writeState } from "../../src/reconcile/state";

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "ods-state-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("the state file", () => {
  it("is written atomically with mode 0600 and read back", () => {
    const file = path.join(tmp(), "nested", "s.json");
    const s = emptyState();
    s.resources["ods_role.a"] = { typeName: "ods_role", id: "r1", values: { name: "a" }, engineValues: {}, secretFingerprints: {}, dependsOn: [] };
    writeState(file, s);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readState(file).resources["ods_role.a"].id).toBe("r1");
    expect(fs.readdirSync(path.dirname(file))).toEqual(["s.json"]);
  });

  it("refuses a corrupt, a truncated, a foreign and a newer file, leaving each untouched", () => {
    const d = tmp();
    const cases: [string, RegExp][] = [
      ["{not json", /not valid JSON/],
      ['{"formatVersion": 1, "resources": {"a":', /not valid JSON/],
      ['{"hello": "world"}', /does not look like an ods state/],
      [JSON.stringify({ formatVersion: STATE_FORMAT_VERSION + 1, resources: {} }), /newer than this ods understands/],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      const file = path.join(d, `s${i}.json`);
      fs.writeFileSync(file, text);
      expect(() => readState(file)).toThrow(message);
      expect(fs.readFileSync(file, "utf8")).toBe(text);
    }
  });

  it("is locked against a second run, which fails at once naming the holder", () => {
    const file = path.join(tmp(), "s.json");
    const release = acquireLock(file, "ods apply");
    try {
      expect(() => acquireLock(file, "ods apply")).toThrow(LockError);
      expect(() => acquireLock(file, "ods apply")).toThrow(new RegExp(`pid ${process.pid} on .*"ods apply"`));
    } finally {
      release();
    }
    acquireLock(file, "again")();
  });

  it("takes over a lock left by a process that no longer runs", () => {
    const file = path.join(tmp(), "s.json");
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: 2 ** 22 + 7, host: os.hostname(), command: "ods apply", startedAt: "x" }));
    const release = acquireLock(file, "ods apply");
    expect(JSON.parse(fs.readFileSync(`${file}.lock`, "utf8")).pid).toBe(process.pid);
    release();
  });
});
