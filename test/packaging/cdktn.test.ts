// CDK Terrain users (`cdktn`, the community continuation of CDKTF) get the same
// constructs from `cdktf-provider-ods/cdktn`: an app written with the cdktn library
// synthesizes them, references and synth-time validation included, on this Node.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cachedInstall, ROOT } from "./consumer-harness";

const CDKTN_VERSION = "0.24.0";
// cdktn 0.24 asks for constructs >=10.6 <10.8 (this project's cdktf uses 10.8): its own cache.
const installed = cachedInstall(`cdktn-${CDKTN_VERSION}`, [`cdktn@${CDKTN_VERSION}`, "constructs@>=10.6.0 <10.8.0"]);
if ("reason" in installed) console.warn(`cdktn: skipped: ${installed.reason}`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ods-cdktn-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function synth(body: string): { status: number | null; stderr: string; stack?: Record<string, any> } {
  const outdir = fs.mkdtempSync(path.join(tmp, "out-"));
  const app = path.join(outdir, "app.js");
  fs.writeFileSync(app, [
    'const { App, TerraformStack, TerraformOutput } = require("cdktn");',
    `const ods = require(${JSON.stringify(path.join(ROOT, "cdktn.js"))});`,
    `const app = new App({ outdir: ${JSON.stringify(outdir)} });`,
    'const stack = new TerraformStack(app, "terrain");',
    'new ods.provider.OdsProvider(stack, "ods", {});',
    body,
    "app.synth();",
  ].join("\n"));
  const nodePath = (installed as { dir: string }).dir;
  const r = spawnSync(process.execPath, [app], { cwd: outdir, encoding: "utf8", timeout: 60_000, env: { ...process.env, NODE_PATH: nodePath } });
  const file = path.join(outdir, "stacks/terrain/cdk.tf.json");
  return { status: r.status, stderr: r.stderr, stack: fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined };
}

describe.skipIf("reason" in installed)(`cdktn ${CDKTN_VERSION}`, () => {
  it("synthesizes the constructs, with the provider's version and references between resources", () => {
    const r = synth([
      'const logs = new ods.dataset.Dataset(stack, "logs", { name: "terrain-logs" });',
      'new ods.virtualField.VirtualField(stack, "secs", { dataset: logs.name, name: "secs", expression: "duration_ms / 1000" });',
      'const t = new ods.apiToken.ApiToken(stack, "ci", { name: "ci", datasetCapabilities: { "terrain-logs": { ingest: ["create"] } } });',
      'new TerraformOutput(stack, "token", { value: t.token, sensitive: true });',
    ].join("\n"));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stack?.terraform.required_providers.ods).toEqual({ source: "registry.terraform.io/ods/ods", version: "0.1.0" });
    expect(r.stack?.resource.ods_virtual_field.secs.dataset).toBe("${ods_dataset.logs.name}");
    expect(r.stack?.output.token.value).toBe("${ods_api_token.ci.token}");
  });

  it("stops a bad value at synth time with the construct path", () => {
    const r = synth('new ods.notifier.Notifier(stack, "oncall", { name: "oncall", properties: { email: { emails: ["oncall"] } } });');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/terrain\/oncall[\s\S]*properties\.email\.emails\[0\]/);
    expect(r.stack).toBeUndefined();
  });
});
