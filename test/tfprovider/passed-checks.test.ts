import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PassedChecks, checkJournal, checkJournalDir } from "../../src/tfprovider/passed-checks";
import { removeTempDirs, tempDir } from "../helpers/ods-cli";

afterAll(removeTempDirs);

const key = (c: string): string => c.repeat(64);

describe("the passed checks a served provider remembers", () => {
  it("answers a pass until its time is up, then asks again", () => {
    let now = 1_000;
    const memo = new PassedChecks(() => now, 60_000);
    expect(memo.passed("q")).toBe(false);
    memo.remember("q");
    now += 59_999;
    expect(memo.passed("q")).toBe(true);
    now += 1;
    expect(memo.passed("q")).toBe(false);
    expect(memo.size).toBe(0);
  });

  it("keeps at most its bound, forgetting the oldest pass first; a renewed pass counts as new", () => {
    const memo = new PassedChecks(() => 0, 60_000, 2);
    memo.remember("a");
    memo.remember("b");
    memo.remember("a");
    memo.remember("c");
    expect(["a", "b", "c"].filter((k) => memo.passed(k))).toEqual(["a", "c"]);
  });
});

describe("the journal of passed checks that the processes of a started provider share", () => {
  it("lets a later process see the passes of an earlier one, within the same time limit, and not before they were written", () => {
    const dir = tempDir();
    let now = 1_000_000;
    const planWalk = new PassedChecks(() => now, 60_000, 100, checkJournal(dir, "target1"));
    const early = new PassedChecks(() => now, 60_000, 100, checkJournal(dir, "target1"));
    expect(early.passed(key("a"))).toBe(false); // reads the (empty) journal once, now
    planWalk.remember(key("a"));
    now += 1_000;
    const applyWalk = new PassedChecks(() => now, 60_000, 100, checkJournal(dir, "target1"));
    expect(applyWalk.passed(key("a"))).toBe(true);
    expect(applyWalk.passed(key("b"))).toBe(false);
    // Another target (organization or token) has a journal of its own.
    expect(new PassedChecks(() => now, 60_000, 100, checkJournal(dir, "target2")).passed(key("a"))).toBe(false);
    now += 59_000;
    expect(new PassedChecks(() => now, 60_000, 100, checkJournal(dir, "target1")).passed(key("a"))).toBe(false);
  });

  it("skips torn and foreign lines, and never fails when the file cannot be read or written", () => {
    const dir = tempDir();
    const file = path.join(dir, "checks-t.log");
    fs.writeFileSync(file, `12 ${key("a")}\nnot a pass\n${Date.now()} ${key("b")}\n${Date.now()} ${key("c").slice(0, 9)}`);
    const memo = new PassedChecks(undefined, undefined, undefined, checkJournal(dir, "t"));
    expect([key("a"), key("b"), key("c")].map((k) => memo.passed(k))).toEqual([false, true, false]);
    const gone = new PassedChecks(undefined, undefined, undefined, checkJournal(path.join(dir, "missing"), "t"));
    gone.remember(key("d"));
    expect(gone.passed(key("d"))).toBe(true); // still remembered in memory
  });

  it("rewrites a grown journal with its live passes only", () => {
    const dir = tempDir();
    const file = path.join(dir, "checks-t.log");
    const old = Date.now() - 10 * 60_000;
    const stale = Array.from({ length: 4000 }, (_, i) => `${old} ${i.toString(16).padStart(64, "0")}\n`).join("");
    fs.writeFileSync(file, `${stale}${Date.now()} ${key("e")}\n`);
    expect(fs.statSync(file).size).toBeGreaterThan(256 * 1024);
    expect(new PassedChecks(undefined, undefined, undefined, checkJournal(dir, "t")).passed(key("e"))).toBe(true);
    expect(fs.readFileSync(file, "utf8").trim().split("\n")).toHaveLength(1);
    expect(new PassedChecks(undefined, undefined, undefined, checkJournal(dir, "t")).passed(key("e"))).toBe(true);
  });

  it("lives in a directory of this user's alone: off by request, refused when others can write to it", () => {
    expect(checkJournalDir({ ODS_PROVIDER_CACHE_DIR: "off" })).toBeUndefined();
    const byDefault = checkJournalDir({});
    expect(byDefault).toBe(path.join(os.tmpdir(), `ods-provider-${process.getuid?.() ?? os.userInfo().username}`));
    expect(fs.statSync(String(byDefault)).mode & 0o077).toBe(0);
    const own = path.join(tempDir(), "cache");
    expect(checkJournalDir({ ODS_PROVIDER_CACHE_DIR: own })).toBe(own);
    expect(fs.statSync(own).mode & 0o777).toBe(0o700);
    const shared = tempDir();
    fs.chmodSync(shared, 0o777);
    expect(checkJournalDir({ ODS_PROVIDER_CACHE_DIR: shared })).toBeUndefined();
    const file = path.join(tempDir(), "a-file");
    fs.writeFileSync(file, "");
    expect(checkJournalDir({ ODS_PROVIDER_CACHE_DIR: file })).toBeUndefined();
  });
});
