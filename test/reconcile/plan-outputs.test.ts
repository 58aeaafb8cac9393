// Outputs are part of the plan (issue 54): adding, changing or removing a TerraformOutput
// shows under "Changes to Outputs" (text), in the markdown comment and as `output_changes`
// in Terraform's JSON plan shape; sensitive values are hidden; `--detailed-exitcode`
// exits 2 when only outputs change, and 0 once they are applied.
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { readStateFile, runOds, stackFlags, tempDir, writeStack, type StackSpec } from "../helpers/ods-cli";
import { useRig } from "../lifecycle/helpers";

const use = useRig();

describe("outputs in the plan", () => {
  const env = (): Record<string, string> => ({ ODS_URL: use.rig.emu.url, ODS_TOKEN: use.rig.emu.adminToken });
  const ods = (dir: string, ...args: string[]) => runOds([...args, ...stackFlags(dir)], { env: env() });
  const stack = (output: StackSpec["output"], token = "outputs-ci"): StackSpec => ({
    resource: { ods_dataset: { logs: { name: "outputs-logs", description: "d" } }, ods_api_token: { ci: { name: token } } },
    output,
  });

  it("shows an added, a changed and a removed output in every format, and counts them for --detailed-exitcode", async () => {
    const dir = tempDir();
    writeStack(dir, stack({ keep: { value: "${ods_dataset.logs.name}" }, gone: { value: "bye" } }));
    const first = await ods(dir, "apply", "--auto-approve");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("Changes to Outputs:\n  + gone = \"bye\"\n  + keep = \"outputs-logs\"");

    // Only outputs change: the objects are as declared.
    writeStack(dir, stack({ keep: { value: "${ods_dataset.logs.name}-v2" }, added: { value: "${ods_dataset.logs.id}" }, secret: { value: "${ods_api_token.ci.token}", sensitive: true } }));
    use.rig.emu.resetRequests();
    const plan = await ods(dir, "plan", "--detailed-exitcode");
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).not.toContain("No changes");
    expect(plan.stdout).toContain("Changes to Outputs:");
    expect(plan.stdout).toMatch(/^ {2}\+ added = "[^"]+"$/m);
    expect(plan.stdout).toContain('  - gone = "bye" -> null');
    expect(plan.stdout).toContain('  ~ keep = "outputs-logs" -> "outputs-logs-v2"');
    expect(plan.stdout).toContain("  + secret = (sensitive)");

    const json = await ods(dir, "plan", "--json");
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as { output_changes: Record<string, Record<string, unknown>> };
    expect(doc.output_changes.keep).toEqual({ actions: ["update"], before: "outputs-logs", after: "outputs-logs-v2", after_unknown: false, before_sensitive: false, after_sensitive: false });
    expect(doc.output_changes.gone).toMatchObject({ actions: ["delete"], before: "bye", after: null });
    expect(doc.output_changes.secret).toEqual({ actions: ["create"], before: null, after: null, after_unknown: false, before_sensitive: false, after_sensitive: true });
    expect(Object.keys(doc.output_changes).sort()).toEqual(["added", "gone", "keep", "secret"]);

    const md = await ods(dir, "plan", "--format", "markdown");
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain("**Plan:** 4 outputs to change");
    expect(md.stdout).toContain("**Changes to Outputs:**");
    expect(md.stdout).toContain("  + secret = (sensitive)");
    // Planning wrote nothing.
    expect(use.rig.emu.requests().filter((q) => q.method !== "GET")).toEqual([]);

    const apply = await ods(dir, "apply", "--auto-approve");
    expect(apply.code, apply.stderr).toBe(0);
    const token = readStateFile(path.join(dir, "state.json")).resources["ods_api_token.ci"].sensitive?.token;
    expect(token).toBeTruthy();
    for (const text of [plan.stdout, plan.stderr, json.stdout, md.stdout, apply.stdout, apply.stderr]) expect(text).not.toContain(token!);
    expect(readStateFile(path.join(dir, "state.json")).outputs.keep.value).toBe("outputs-logs-v2");
    const again = await ods(dir, "plan", "--detailed-exitcode");
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain("No changes");
  });

  it("says an output known only after apply is so, with Terraform's after_unknown", async () => {
    const dir = tempDir();
    writeStack(dir, stack({ id: { value: "${ods_api_token.ci.id}" } }, "outputs-new"));
    const json = await ods(dir, "plan", "--json", "--detailed-exitcode");
    expect(json.code, json.stderr).toBe(2);
    const doc = JSON.parse(json.stdout) as { output_changes: Record<string, Record<string, unknown>> };
    expect(doc.output_changes.id).toEqual({ actions: ["create"], before: null, after: null, after_unknown: true, before_sensitive: false, after_sensitive: false });
    const text = await ods(dir, "plan");
    expect(text.stdout).toContain("  + id = (known after apply)");
  });
});
