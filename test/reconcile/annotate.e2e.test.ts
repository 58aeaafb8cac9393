// `ods apply --annotate` and `ods annotate` against the emulator over HTTP: one
// config-change annotation per dataset the applied changes named, with a title counting
// them and a link to the CI run; none when nothing changed; a failed annotation is a
// warning, never a failed apply.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient, type Annotation } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack, type StackSpec } from "../helpers/ods-cli";

let emu: EmulatorHandle;
let admin: OdsClient;
const GITHUB = { GITHUB_SERVER_URL: "https://github.example.com", GITHUB_REPOSITORY: "shop/infra", GITHUB_RUN_ID: "4242" };

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  for (const name of ["an-api", "an-db", "an-quiet"]) await admin.createDataset({ name });
});
afterAll(async () => {
  await admin.close();
  await emu.close();
  removeTempDirs();
});

function stack(viewQuery: string): StackSpec {
  return {
    resource: {
      ods_view: {
        errors: { name: "an-errors", apl_query: viewQuery },
        slow: { name: "an-slow", apl_query: "['an-api'] | where duration_ms > 1000", datasets: ["an-api"] },
      },
      ods_virtual_field: { lat: { dataset: "an-db", name: "lat_s", expression: "duration_ms / 1000" } },
      ods_dashboard: {
        health: {
          uid: "an-health",
          dashboard: JSON.stringify({
            name: "DB health",
            owner: "X-AXIOM-EVERYONE",
            charts: [{ id: "q", type: "TimeSeries", query: { apl: "['an-db'] | summarize count() by bin_auto(_time)" } }],
            layout: [{ i: "q", x: 0, y: 0, w: 12, h: 4 }],
            refreshTime: 60,
            schemaVersion: 2,
            timeWindowStart: "qr-now-1h",
            timeWindowEnd: "qr-now",
          }),
        },
      },
    },
  };
}

function byDataset(list: Annotation[]): Record<string, Annotation[]> {
  const out: Record<string, Annotation[]> = {};
  for (const a of list) for (const d of a.datasets) (out[d] ??= []).push(a);
  return out;
}

describe("ods apply --annotate", () => {
  it("annotates each touched dataset once, links the CI run, and writes nothing when nothing changed", async () => {
    const dir = tempDir();
    writeStack(dir, stack("['an-api'] | where status >= 500"));
    const env = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, ...GITHUB };
    const first = await runOds(["apply", "--auto-approve", "--annotate", ...stackFlags(dir)], { env });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const made = byDataset(await admin.listAnnotations());
    expect(Object.keys(made).sort()).toEqual(["an-api", "an-db"]);
    expect(made["an-api"]).toHaveLength(1);
    expect(made["an-db"]).toHaveLength(1);
    const api = made["an-api"]![0]!;
    expect(api.type).toBe("config-change");
    expect(api.title).toBe("ods apply: 2 configuration changes (2 created)");
    expect(api.url).toBe("https://github.example.com/shop/infra/actions/runs/4242");
    expect(api.description).toContain("ods_view.errors");
    expect(made["an-db"]![0]!.title).toBe("ods apply: 2 configuration changes (2 created)");

    const again = await runOds(["apply", "--auto-approve", "--annotate", ...stackFlags(dir)], { env });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(await admin.listAnnotations()).toHaveLength(2);

    // One view now reads the db dataset as well: only the datasets it names are marked.
    writeStack(dir, stack("['an-api'] | union ['an-db'] | where status >= 500"));
    const changed = await runOds(["apply", "--auto-approve", "--annotate", ...stackFlags(dir)], {
      env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, GITHUB_SERVER_URL: undefined, GITHUB_RUN_ID: undefined, CI_JOB_URL: "https://gitlab.example.com/shop/-/jobs/7" },
    });
    expect(changed.code, changed.stdout + changed.stderr).toBe(0);
    const now = byDataset(await admin.listAnnotations());
    expect(now["an-api"]).toHaveLength(2);
    expect(now["an-db"]).toHaveLength(2);
    expect(now["an-quiet"]).toBeUndefined();
    const latest = now["an-db"]!.find((a) => a.id !== made["an-db"]![0]!.id)!;
    expect(latest.title).toBe("ods apply: 1 configuration change (1 updated)");
    expect(latest.url).toBe("https://gitlab.example.com/shop/-/jobs/7");
  });

  it("warns and succeeds when the token may not write annotations", async () => {
    const dir = tempDir();
    const spec = stack("['an-quiet'] | take 1");
    spec.resource!.ods_view = { q: { name: "an-quiet-view", apl_query: "['an-quiet'] | take 1" } };
    delete spec.resource!.ods_dashboard;
    delete spec.resource!.ods_virtual_field;
    writeStack(dir, spec);
    // A view may only be written by a token that may query what it reads (the emulator's rule since issue 48).
    const limited = await admin.createToken({
      name: "no-annotations",
      orgCapabilities: { datasets: ["read"], views: ["create", "read", "update", "delete"] },
      datasetCapabilities: { "an-quiet": { query: ["read"] } },
    });
    const before = (await admin.listAnnotations()).length;
    const r = await runOds(["apply", "--auto-approve", "--annotate", "--no-check-queries", ...stackFlags(dir)], { env: { ODS_URL: emu.url, ODS_TOKEN: limited.token } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Warning: annotating dataset an-quiet failed: .*annotations/);
    expect((await admin.listViews()).some((v) => v.name === "an-quiet-view")).toBe(true);
    expect(await admin.listAnnotations()).toHaveLength(before);
  });
});

describe("ods annotate", () => {
  it("writes one deploy annotation on the named datasets, with the given URL", async () => {
    const r = await runOds(["annotate", "--dataset", "an-api", "--dataset", "an-db", "--type", "deploy", "--title", "v1.4.2", "--url", "https://deploy.example.com/1"], {
      env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken },
    });
    expect(r.code, r.stderr).toBe(0);
    const id = /: (ann_\S+)/.exec(r.stdout)?.[1];
    expect(id).toBeDefined();
    const a = await admin.getAnnotation(id!);
    expect(a).toMatchObject({ datasets: ["an-api", "an-db"], type: "deploy", title: "v1.4.2", url: "https://deploy.example.com/1" });
    const bad = await runOds(["annotate", "--dataset", "an-api", "--type", "Deploy!"], { env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken } });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--type");
  });
});
