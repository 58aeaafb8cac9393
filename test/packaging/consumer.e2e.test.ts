// The consumer journey end to end, as a new user takes it: the packed tarball installed
// into a fresh project beside cdktf and constructs, an app type-checked with tsc,
// synthesized, then `cdktf deploy`, `cdktf diff`, `ods plan`/`ods apply` on the state
// cdktf wrote, and `cdktf destroy` with the real
// cdktf-cli against an emulator on 127.0.0.1 port 0, offline, after one set-up step
// (`eval "$(npx ods terraform install)"`). Heavy (npm installs, Terraform): it runs with
// `npm run test:consumer`, and is skipped with the reason printed otherwise.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient, resolveClientConfig } from "../../src/api";
import { type EmulatorHandle, startEmulator } from "../../src/emulator";
import { cdktfCli, consumerProject, output, packTarball, run, runAsync, TSC, writeConsumerTsconfig } from "./consumer-harness";

const requested = process.env.ODS_CONSUMER_TEST === "1";
import { hasTerraform } from "../helpers/terraform-probe";
const cli = requested && hasTerraform ? cdktfCli() : undefined;
const skipReason = !requested
  ? "set by `npm run test:consumer` (installs cdktf-cli into ~/.cache/ods-tests and packs the package)"
  : !hasTerraform
    ? "`terraform` is not on PATH"
    : cli && "reason" in cli
      ? cli.reason
      : undefined;
if (skipReason) console.warn(`consumer journey: skipped: ${skipReason}`);

/** `export NAME=VALUE` lines as printed by `ods terraform install` (values unquoted here). */
function parseExports(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^export ([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2].replace(/^'(.*)'$/, "$1");
  }
  return env;
}

describe.skipIf(Boolean(skipReason))("a fresh CDKTF project using the packed package", () => {
  let tmp: string;
  let project: string;
  let emu: EmulatorHandle;
  let env: NodeJS.ProcessEnv;
  const cdktf = (...args: string[]) => runAsync((cli as { bin: string }).bin, args, { cwd: project, env, timeoutMs: 600_000 });

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ods-consumer-"));
    project = path.join(tmp, "app");
    fs.mkdirSync(project);
    const started = Date.now();
    const tarball = packTarball(tmp);
    consumerProject(project, tarball, ["cdktf@0.21.0", "constructs@10.8.1"]);
    console.log(`consumer journey: packed and installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    emu = await startEmulator({ port: 0, dataDir: path.join(tmp, "emulator") });
    // The one set-up step of docs/guides/terraform-and-cdktf.md, run from the installed package.
    const install = await runAsync(path.join(project, "node_modules/.bin/ods"), ["terraform", "install"], { cwd: project, timeoutMs: 60_000 });
    expect(install.status, output(install)).toBe(0);
    env = {
      ...parseExports(install.stdout),
      ODS_URL: emu.url,
      ODS_TOKEN: emu.adminToken,
      CI: "1",
      TF_IN_AUTOMATION: "1",
      TF_LOG: undefined,
      TF_DATA_DIR: undefined,
      TF_PLUGIN_CACHE_DIR: undefined,
    };
  }, 900_000);

  afterAll(async () => {
    await emu?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("type-checks, synthesizes, deploys, shows no diff, shares its state with ods, and destroys with cdktf-cli 0.21.0", async () => {
    fs.copyFileSync(path.join(__dirname, "fixtures/consumer-app.ts"), path.join(project, "main.ts"));
    writeConsumerTsconfig(project);
    fs.writeFileSync(path.join(project, "cdktf.json"), `${JSON.stringify({ language: "typescript", app: "node main.js", terraformProviders: [], terraformModules: [], sendCrashReports: "false" }, null, 2)}\n`);

    const check = run(process.execPath, [TSC, "--noEmit", "-p", "."], { cwd: project, timeoutMs: 180_000 });
    expect(check.status, output(check)).toBe(0);
    const emit = run(process.execPath, [TSC, "-p", "."], { cwd: project, timeoutMs: 180_000 });
    expect(emit.status, output(emit)).toBe(0);

    const synth = await cdktf("synth");
    expect(synth.status, output(synth)).toBe(0);
    const stack = JSON.parse(fs.readFileSync(path.join(project, "cdktf.out/stacks/consumer/cdk.tf.json"), "utf8")) as {
      terraform: { required_providers: Record<string, { source: string; version?: string }> };
    };
    expect(stack.terraform.required_providers.ods).toEqual({ source: "registry.terraform.io/ods/ods", version: "0.1.0" });

    const deploy = await cdktf("deploy", "consumer", "--auto-approve");
    expect(deploy.status, output(deploy)).toBe(0);
    const admin = new OdsClient(resolveClientConfig({ url: emu.url, token: emu.adminToken }, {}));
    expect((await admin.getDataset("consumer-logs")).name).toBe("consumer-logs");
    // The lock file cdktf made from the local mirror, with the package's checksum.
    expect(fs.readFileSync(path.join(project, "cdktf.out/stacks/consumer/.terraform.lock.hcl"), "utf8")).toMatch(/provider "registry.terraform.io\/ods\/ods"[\s\S]*h1:/);

    const diff = await cdktf("diff", "consumer");
    expect(diff.status, output(diff)).toBe(0);
    expect(diff.stdout + diff.stderr).toMatch(/No changes/);

    // One state for both engines: the installed `ods` synthesizes the same app, finds the
    // state cdktf deploy wrote (the local backend's terraform.consumer.tfstate) and plans
    // nothing; its apply changes nothing, and cdktf sees no difference afterwards.
    const ods = (...args: string[]) => runAsync(path.join(project, "node_modules/.bin/ods"), args, { cwd: project, env, timeoutMs: 300_000 });
    const odsPlan = await ods("plan", "--detailed-exitcode");
    expect(odsPlan.status, output(odsPlan)).toBe(0);
    expect(odsPlan.stdout).toMatch(/No changes/);
    const odsApply = await ods("apply", "--auto-approve");
    expect(odsApply.status, output(odsApply)).toBe(0);
    const diffAfter = await cdktf("diff", "consumer");
    expect(diffAfter.status, output(diffAfter)).toBe(0);
    expect(diffAfter.stdout + diffAfter.stderr).toMatch(/No changes/);

    const destroy = await cdktf("destroy", "consumer", "--auto-approve");
    expect(destroy.status, output(destroy)).toBe(0);
    await expect(admin.getDataset("consumer-logs")).rejects.toThrow();
  }, 900_000);

  it("runs `ods demo` from the installed package in a directory without cdktf.json", async () => {
    const dir = path.join(tmp, "demo");
    fs.mkdirSync(dir);
    const demo = await runAsync(path.join(project, "node_modules/.bin/ods"), ["demo"], { cwd: dir, timeoutMs: 300_000 });
    expect(demo.status, output(demo)).toBe(0);
    expect(demo.stdout).toMatch(/== Plan again ==[\s\S]*No changes/);
  }, 300_000);
});
