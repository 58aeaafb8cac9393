// Which datasets a query job carries to a worker (src/emulator/core.ts): only those whose
// whole name the query text holds. A substring rule carried `g-ds-10` to `g-ds-1999` with
// every query naming `g-ds-1`, so each job grew with the organization.
import { describe, expect, it } from "vitest";
import { datasetNamesIn } from "../../src/emulator/core";
import type { JobRequest } from "../../src/emulator/core";

const monitor = (apl: string): JobRequest =>
  ({ kind: "monitor", apl, window: { startMs: 0, endMs: 1 }, want: "count", columnName: "n", reader: { kind: "organization" }, nowMs: 0 }) as JobRequest;

function names(apl: string): string[] | "any" {
  const found = datasetNamesIn(monitor(apl));
  return found === "any" ? found : [...found];
}

describe("the datasets a query job carries", () => {
  it("names a dataset only as a whole run of name characters, bare or bracketed", () => {
    const found = names("['g-ds-1'] | where status >= 500 | join (g_ds_2) on id");
    expect(found).toContain("g-ds-1");
    expect(found).toContain("g_ds_2");
    expect(found).not.toContain("g-ds-10");
    expect(found).not.toContain("g-ds");
  });

  it("keeps names with dots, and each dot-separated part of them", () => {
    const found = names("['logs.prod.eu'] | count");
    for (const n of ["logs.prod.eu", "logs", "prod", "eu", "logs.prod", "prod.eu"]) expect(found).toContain(n);
  });

  it("carries every dataset when a backslash may spell a name with escapes", () => {
    expect(names("['g\\x2dds'] | count")).toBe("any");
  });

  it("carries the one dataset of a legacy query", () => {
    const found = datasetNamesIn({ kind: "legacy", dataset: "web", body: {}, reader: { kind: "organization" }, nowMs: 0 } as JobRequest);
    expect(found === "any" ? found : [...found]).toEqual(["web"]);
  });
});
