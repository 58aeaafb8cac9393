// The plan is a contract (issue 54): what apply will do, or refuse, is in the plan.
// Token rotations name when the old secret stops working; a dashboard changed in the UI
// since this configuration wrote it is foreseen by the plan and by drift, and refuses the
// whole apply before any write; --warnings-as-errors fails plan, apply and drift on a
// warning; a long string that changed in one place shows that place.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { dashboardStack } from "../helpers/dashboard-stack";
import { runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";
import { useRig } from "../lifecycle/helpers";

const use = useRig();
const env = (): Record<string, string> => ({ ODS_URL: use.rig.emu.url, ODS_TOKEN: use.rig.emu.adminToken });
const ods = (dir: string, ...args: string[]) => runOds([...args, ...stackFlags(dir)], { env: env() });
// Queries (the plan compiles changed ones) read: every other POST, PUT or DELETE writes.
const writes = () => use.rig.emu.requests().filter((q) => q.method !== "GET" && !q.path.endsWith("/_apl"));

describe("rotations say when the old secret stops working", () => {
  const token = (description: string, grace?: string) => ({ resource: { ods_api_token: { ci: { name: "contract-ci", description, ...(grace ? { rotation_grace_period: grace } : {}) } } } });

  it("at apply for a zero grace (with a warning), else at the end of the grace, in text, markdown and JSON", async () => {
    const dir = tempDir();
    writeStack(dir, token("v1"));
    expect((await ods(dir, "apply", "--auto-approve")).code).toBe(0);

    writeStack(dir, token("v2"));
    const text = await ods(dir, "plan");
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('# old secret stops working at apply (rotation_grace_period "0s")');
    expect(text.stdout).toMatch(/Warning: \[main\/ci\] ods_api_token\.ci will be rotated with rotation_grace_period "0s": its old token stops working at apply/);
    const md = await ods(dir, "plan", "--format", "markdown");
    expect(md.stdout).toContain("**`ods_api_token.ci`**: old secret stops working at apply");
    const json = JSON.parse((await ods(dir, "plan", "--json")).stdout) as { resource_changes: Record<string, unknown>[] };
    expect(json.resource_changes[0]).toMatchObject({ action: "rotate", old_secret_stops_working_at: "apply", rotation_grace_period: "0s" });

    writeStack(dir, token("v2", "24h"));
    const before = Date.now();
    const graced = await ods(dir, "plan", "--json");
    const change = (JSON.parse(graced.stdout) as { resource_changes: Record<string, unknown>[]; warnings: string[] }).resource_changes[0];
    expect(change).toMatchObject({ action: "rotate", rotation_grace_period: "24h" });
    const at = Date.parse(String(change.old_secret_stops_working_at));
    expect(at).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 2_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000 + 2_000);
    const graceText = await ods(dir, "plan");
    expect(graceText.stdout).toMatch(/# old secret stops working at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(grace 24h, counted from the apply/);
    expect(graceText.stdout).not.toContain("Warning:");
  });
});

describe("a dashboard changed since this configuration wrote it", () => {
  /** The builder's stack, with its first view's description set (a second object to change). */
  const stack = (o: { errorsTitle?: string; overwrite?: boolean; viewDescription?: string }) => {
    const json = dashboardStack({ dataset: "contract-logs", uid: "contract-health", ...o }) as { resource: Record<string, Record<string, Record<string, unknown>>> };
    for (const v of Object.values(json.resource.ods_view)) if (v.description !== undefined) v.description = o.viewDescription ?? "server errors";
    return json;
  };
  const write = (dir: string, json: unknown): void => {
    const file = path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(json));
  };

  it("is foreseen by plan and drift, and the apply refuses before any write; with overwrite the plan says it will replace their change", async () => {
    const dir = tempDir();
    write(dir, stack({}));
    expect((await ods(dir, "apply", "--auto-approve", "--no-backtest")).code).toBe(0);
    const live = await use.rig.admin.getDashboard("contract-health");
    const charts = (live.dashboard.charts as Record<string, unknown>[]).map((c, i) => (i === 0 ? { ...c, name: "Errors (UI)" } : c));
    const edited = (await use.rig.admin.updateDashboard("contract-health", { dashboard: { ...live.dashboard, charts }, version: live.version })).dashboard;

    const drift = await ods(dir, "drift");
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`changed by ${edited.updatedBy} at ${edited.updatedAt} (now version 2; this configuration last wrote version 1); apply will refuse this dashboard unless overwrite = true`);

    write(dir, stack({ errorsTitle: "5xx", viewDescription: "5xx only" }));
    const plan = await ods(dir, "plan", "--no-backtest");
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/# dashboard "contract-health" was changed by .* apply will refuse this dashboard unless overwrite = true/);
    const json = JSON.parse((await ods(dir, "plan", "--json", "--no-backtest")).stdout) as { resource_changes: { type: string; apply_refuses?: string }[] };
    expect(json.resource_changes.find((c) => c.type === "ods_dashboard")?.apply_refuses).toMatch(/unless overwrite = true/);

    use.rig.emu.resetRequests();
    const refused = await ods(dir, "apply", "--auto-approve", "--no-backtest");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/apply will refuse this dashboard unless overwrite = true/);
    expect(refused.stderr).toContain("nothing was applied to stack main");
    // The view's change was not written either: the apply refused as a whole.
    expect(writes()).toEqual([]);

    write(dir, stack({ errorsTitle: "5xx", viewDescription: "5xx only", overwrite: true }));
    const forced = await ods(dir, "plan", "--no-backtest");
    expect(forced.stdout).toContain("overwrite = true, so apply will replace their change");
    expect((await ods(dir, "apply", "--auto-approve", "--no-backtest")).code).toBe(0);
    expect((await use.rig.admin.getDashboard("contract-health")).version).toBe(3);
  });
});

describe("--warnings-as-errors", () => {
  // A resource the ods engine does not manage is skipped with a warning (plan, apply, drift).
  const spec = { resource: { ods_dataset: { logs: { name: "contract-warned" } }, null_resource: { other: {} } } };

  it("fails plan, apply and drift on a warning after printing it; apply writes nothing", async () => {
    const dir = tempDir();
    writeStack(dir, spec);
    const lax = await ods(dir, "plan");
    expect(lax.code).toBe(0);
    expect(lax.stdout).toContain("Warning: skipping null_resource.other");
    const strict = await ods(dir, "plan", "--warnings-as-errors");
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("Warning: skipping null_resource.other");
    expect(strict.stderr).toContain("--warnings-as-errors: 1 warning in the plan");

    use.rig.emu.resetRequests();
    const apply = await ods(dir, "apply", "--auto-approve", "--warnings-as-errors");
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain("--warnings-as-errors: 1 warning in the plan; nothing was applied");
    expect(writes()).toEqual([]);

    expect((await ods(dir, "apply", "--auto-approve")).code).toBe(0);
    const drift = await ods(dir, "drift", "--warnings-as-errors");
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain("Warning: skipping null_resource.other");
    expect((await ods(dir, "drift")).code).toBe(0);
  });
});

describe("a long string changed in one place", () => {
  it("shows the changed span with context, not both whole values", async () => {
    const dir = tempDir();
    const query = (path: string): string => `['contract-span'] | where ${Array.from({ length: 40 }, (_, i) => `field_${i} != "x"`).join(" and ")} | where path == "${path}"`;
    const view = (q: string) => ({ resource: { ods_dataset: { logs: { name: "contract-span" } }, ods_view: { v: { name: "contract-span-view", apl_query: q, datasets: ["${ods_dataset.logs.name}"] } } } });
    writeStack(dir, view(query("/old")));
    expect((await ods(dir, "apply", "--auto-approve")).code).toBe(0);
    writeStack(dir, view(query("/new")));
    const plan = await ods(dir, "plan");
    const line = plan.stdout.split("\n").find((l) => l.includes("~ apl_query"));
    expect(line, plan.stdout).toBeDefined();
    expect(line).toMatch(/~ apl_query = ….*path == \\"\/old\\"" -> ….*path == \\"\/new\\"" \(changed at character \d+ of \d+\)/);
    expect(line!.length).toBeLessThan(300);
  });
});
