// The two engines agree: one stack applied by `ods apply` into one fresh emulator and by
// `terraform apply` into another leaves the same live objects. And a terraform plan of
// 100 unchanged resources costs about one list call per kind (per dataset).
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, stackFlags, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider } from "./harness";

let cliConfig: string;
const emulators: EmulatorHandle[] = [];
const fresh = async (): Promise<EmulatorHandle> => {
  const e = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), rateLimitPerSecond: 100_000 });
  emulators.push(e);
  return e;
};

beforeAll(() => {
  if (hasTerraform) cliConfig = installProvider();
});
afterAll(async () => {
  for (const e of emulators) await e.close();
  removeTempDirs();
});

/** One stack, valid both as cdk.tf.json (ods) and main.tf.json (terraform). */
function stack(): Record<string, unknown> {
  return {
    terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } } },
    provider: { ods: [{}] },
    resource: {
      ods_dataset: { logs: { name: "parity-logs", description: "parity" } },
      ods_virtual_field: { v: { dataset: "${ods_dataset.logs.name}", name: "kb", expression: "bytes / 1024", unit: "KiB" } },
      ods_starred_query: { q: { dataset: "${ods_dataset.logs.name}", name: "errors", query: { apl: "['parity-logs'] | where status >= 500", default_limit: 50 } } },
      ods_notifier: {
        n: {
          name: "parity-n",
          disabled_until: "2031-05-01T00:00:00Z",
          properties: { email: { emails: ["z@example.com", "y@example.com"] }, incident_a: { api_key: "parity-key-0042", is_eu: true } },
        },
      },
      ods_monitor: {
        m: {
          name: "parity-m",
          type: "Threshold",
          apl_query: "['parity-logs'] | summarize count() by bin(_time, 1m)",
          operator: "AboveOrEqual",
          threshold: 10,
          interval_minutes: 1,
          range_minutes: 5,
          resolvable: true,
          notifier_ids: ["${ods_notifier.n.id}"],
        },
      },
      ods_role: { r: { name: "parity-r", description: "d", org_capabilities: { datasets: ["read"], monitors: ["create", "read"] }, dataset_capabilities: { "parity-logs": { query: ["read"] } } } },
      ods_api_token: { t: { name: "parity-t", expires_at: "2031-01-01T00:00:00Z", org_capabilities: { notifiers: ["read"] } } },
      ods_user: { u: { email: "parity@example.com", name: "Parity User", role: "read-only" } },
    },
  };
}

const VOLATILE = new Set(["id", "createdAt", "createdBy", "created", "who", "token", "samlAuthenticated"]);

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) if (!VOLATILE.has(k)) out[k] = normalize((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

async function namedMonitors(c: OdsClient): Promise<unknown[]> {
  const names = new Map((await c.listNotifiers()).map((n) => [n.id, n.name]));
  const monitors = (await c.listMonitors()).map(({ notifierIds, updatedAt: _u, ...m }) => ({ ...m, notifiers: (notifierIds ?? []).map((id) => names.get(id)) }));
  return monitors.sort((a, b) => a.name.localeCompare(b.name));
}

async function snapshot(e: EmulatorHandle): Promise<unknown> {
  const c = new OdsClient({ url: e.url, token: e.adminToken });
  try {
    const byName = <T extends { name: string }>(xs: T[]): T[] => [...xs].sort((a, b) => a.name.localeCompare(b.name));
    return normalize({
      datasets: byName(await c.listDatasets()),
      vfields: byName(await c.listVirtualFields("parity-logs")),
      queries: byName(await c.listAllStarredQueries({ dataset: "parity-logs", who: "all" })),
      notifiers: byName(await c.listNotifiers()),
      // Notifier ids differ between the two emulators: a monitor's are shown as names.
      monitors: await namedMonitors(c),
      roles: byName(await c.listRoles()),
      tokens: byName((await c.listTokens()).filter((t) => t.name.startsWith("parity"))),
      users: (await c.listUsers()).filter((u) => u.email === "parity@example.com"),
    });
  } finally {
    await c.close();
  }
}

describe.skipIf(!hasTerraform)("the ods and terraform engines", () => {
  it("leave the same live objects from the same stack", async () => {
    const [a, b] = [await fresh(), await fresh()];
    const dir = tempDir();
    const file = path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stack()));
    const ods = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: { ODS_URL: a.url, ODS_TOKEN: a.adminToken } });
    expect(ods.code, ods.stderr).toBe(0);

    const tf = new TerraformWorkspace(cliConfig, { url: b.url, token: b.adminToken });
    tf.writeConfig(stack());
    expect((await tf.run("init")).status).toBe(0);
    const apply = await tf.run("apply", "-auto-approve");
    expect(apply.status, apply.out).toBe(0);

    const [left, right] = [await snapshot(a), await snapshot(b)];
    expect(JSON.stringify(left)).toContain("parity-n");
    expect(right).toEqual(left);
  });

  it("a terraform plan of 100 unchanged resources costs about one list call per kind and per dataset", async () => {
    const e = await fresh();
    const resource: Record<string, Record<string, Record<string, unknown>>> = { ods_dataset: {}, ods_virtual_field: {}, ods_notifier: {}, ods_role: {} };
    for (let d = 0; d < 4; d++) resource.ods_dataset[`d${d}`] = { name: `tfbudget-${d}` };
    for (let i = 0; i < 40; i++) resource.ods_virtual_field[`v${i}`] = { dataset: `\${ods_dataset.d${i % 4}.name}`, name: `f${i}`, expression: "a" };
    for (let i = 0; i < 30; i++) resource.ods_notifier[`n${i}`] = { name: `tfbudget-n${i}`, properties: { webhook: { url: `https://h.example.com/${i}` } } };
    for (let i = 0; i < 26; i++) resource.ods_role[`r${i}`] = { name: `tfbudget-r${i}` };
    const tf = new TerraformWorkspace(cliConfig, { url: e.url, token: e.adminToken });
    tf.writeConfig({ terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } } }, provider: { ods: {} }, resource });
    expect((await tf.run("init")).status).toBe(0);
    expect((await tf.run("apply", "-auto-approve")).status).toBe(0);
    e.resetRequests();
    const plan = await tf.run("plan", "-detailed-exitcode");
    expect(plan.status, plan.out).toBe(0);
    const requests = e.requests();
    // datasets, notifiers, roles: one list each; virtual fields: one list per dataset.
    const lowerBound = 3 + 4;
    console.log(`terraform plan of 100 unchanged resources: ${requests.length} requests (lower bound ${lowerBound})`);
    expect(requests.every((r) => r.method === "GET")).toBe(true);
    expect(requests.length).toBe(lowerBound);
  });
});
