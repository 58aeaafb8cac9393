// The main job shows the monitor loop: `ods demo` (what `npm start` runs) applies the
// example with its threshold monitor and custom webhook, ingests server errors, moves the
// clock, and prints the alert its receiver on 127.0.0.1 got. A second run in the same
// directory starts and ends with "No changes": the receiver's URL did not move.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";

afterAll(() => removeTempDirs());

/** The alert bodies printed after "got:" and after "without errors:", as JSON. */
function printedAlerts(out: string): Record<string, unknown>[] {
  const section = out.slice(out.indexOf("== Monitor =="), out.indexOf("== Plan again =="));
  return [...section.matchAll(/^ {2}\{\n[\s\S]*?^ {2}\}$/gm)].map((m) => JSON.parse(m[0]) as Record<string, unknown>);
}

describe("ods demo", () => {
  it("prints the alert the monitor delivered, and a second run still ends with No changes", async () => {
    const dir = tempDir("ods-demo-");
    const first = await runOds(["demo"], { cwd: dir, timeoutMs: 120_000 });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const url = /Alert receiver listening at (http:\/\/127\.0\.0\.1:\d+\/alerts)/.exec(first.stdout)?.[1];
    expect(url).toBeDefined();
    expect(first.stdout).toContain(`The alert receiver at ${url} got:`);
    expect(printedAlerts(first.stdout)).toEqual([
      { status: "firing", monitor: "Checkout server errors", value: 6, path: ["/checkout"], summary: "value 6 is above the threshold 3" },
      expect.objectContaining({ status: "resolved", monitor: "Checkout server errors" }),
    ]);
    expect(first.stdout.trimEnd()).toMatch(/== Plan again ==\nNo changes\./);
    expect(JSON.parse(fs.readFileSync(path.join(dir, ".ods", "demo.json"), "utf8"))).toMatchObject({ alertPort: Number(new URL(url!).port) });

    const second = await runOds(["demo"], { cwd: dir, timeoutMs: 120_000 });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toContain(`Alert receiver listening at ${url}.`);
    expect(second.stdout).toMatch(/== Plan ==\nNo changes\./);
    expect(second.stdout).toMatch(/== Plan again ==\nNo changes\./);
    expect(printedAlerts(second.stdout).map((a) => a.status)).toEqual(["firing", "resolved"]);
  }, 240_000);
});
