// Secrets stay out of places that are not sensitive: an output carrying one must be
// declared sensitive (as Terraform demands), a value that took one through a reference is
// hidden by `ods state show`, and validation errors never echo a secret attribute's value
// or a URL's credentials.
import { describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { PlanError } from "../../src/reconcile/plan";
import { loadStack } from "../../src/reconcile/stack";
import { validateDeclaration } from "../../src/resources";
import { notifier } from "../../src/resources/notifier";
import { runOds, stackFlags, writeStack } from "../helpers/ods-cli";
import { tempDir } from "../emulator/helpers";
import { odsApply, useRig } from "../lifecycle/helpers";

const use = useRig();
const TOKEN = { name: "echo-ci", description: "ci" };

describe("outputs and state show", () => {
  it("a plan refuses an output that carries a token's secret without sensitive = true, naming it", async () => {
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      const spec = { resource: { ods_api_token: { ci: TOKEN } }, output: { leak: { value: "${ods_api_token.ci.token}" } } };
      const err = await odsApply(client, tempDir(), spec).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(PlanError);
      expect((err as Error).message).toMatch(/output "leak": Output refers to sensitive values \(ods_api_token\.ci\.token\)/);
      expect((await use.rig.admin.listTokens()).some((t) => t.name === "echo-ci")).toBe(false);
      // Through another attribute it is the same.
      const indirect = {
        resource: { ods_api_token: { ci: TOKEN }, ods_role: { r: { name: "echo-role", description: "key ${ods_api_token.ci.token}" } } },
        output: { desc: { value: "${ods_role.r.description}" } },
      };
      await expect(odsApply(client, tempDir(), indirect)).rejects.toThrow(/output "desc": Output refers to sensitive values/);
    } finally {
      await client.close();
    }
  });

  it("ods state show hides a role description that took a token's secret", async () => {
    const dir = tempDir();
    const spec = {
      resource: { ods_api_token: { ci: { name: "echo-ci2" } }, ods_role: { r: { name: "echo-role2", description: "key ${ods_api_token.ci.token}" } } },
      output: { token: { value: "${ods_api_token.ci.token}", sensitive: true } },
    };
    writeStack(dir, spec);
    const env = { ODS_URL: use.rig.emu.url, ODS_TOKEN: use.rig.emu.adminToken };
    const applied = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const secret = (await runOds(["output", "token", "--show-sensitive", ...stackFlags(dir)], { env })).stdout.trim();
    expect(secret.length).toBeGreaterThan(10);
    const show = await runOds(["state", "show", "ods_role.r", ...stackFlags(dir)], { env });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/description = \(sensitive\)/);
    expect(show.stdout + show.stderr).not.toContain(secret);
    const plan = await runOds(["plan", "--json", ...stackFlags(dir)], { env });
    expect(plan.stdout + plan.stderr).not.toContain(secret);
  });
});

describe("validation errors", () => {
  const messages = (values: Record<string, unknown>): string => validateDeclaration(notifier, values).map((i) => i.message).join("\n");

  it("never echo a secret attribute's value", () => {
    const text = messages({ name: "n", properties: { incident_a: { api_key: 424242424242 } } });
    expect(text).toMatch(/expected a string, got a number/);
    expect(text).not.toContain("424242424242");
  });

  it("never echo a secret in an expression error", () => {
    const dir = tempDir();
    const file = writeStack(dir, { resource: { ods_notifier: { n: { name: "n", properties: { chat_b: { chat_b_channel: "#c", chat_b_token: "xoxb-s3cr3t-${oops" } } } } } });
    let err: unknown;
    try {
      loadStack(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/unterminated/);
    expect((err as Error).message).not.toContain("s3cr3t");
  });

  it("never echo a webhook URL: the whole URL is a credential", () => {
    const text = messages({ name: "n", properties: { webhook: { url: "ftp://hookuser:hookpass@hooks.example.com/x/pathsecret" } } });
    expect(text).toMatch(/expected an http\(s\) URL .*\(value not shown: the attribute is secret\)/);
    expect(text).not.toContain("hookpass");
    expect(text).not.toContain("pathsecret");
  });

  it("redact credentials of URLs in other strings", () => {
    const text = messages({ name: "n", disabled_until: "ftp://hookuser:hook@pass@hooks.example.com/x" });
    // A password holding an @ is hidden whole, as a URL parser splits it at the last @.
    expect(text).toMatch(/ftp:\/\/\*\*\*@hooks\.example\.com/);
    expect(text).not.toContain("hook@pass");
  });
});
