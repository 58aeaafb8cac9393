// Every provider process a terraform command starts ends with that command: after
// `terraform apply` and `terraform plan`, and after `terraform plan | head -2`, where
// terraform dies of SIGPIPE mid-command without stopping its providers, no process of
// ours is left 2 s later. The provider reaches the service through HTTP_PROXY, as `ods`
// does (test/api/proxy.test.ts): the proxy sees its requests. The provider processes
// terraform starts hold only the allowlisted part of its environment, as the kernel keeps
// it (/proc/PID/environ): the shell's CI token and cloud secret are not there.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAllowedEnvName } from "../../src/api/allowed-env";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { startHttpProxy, type HttpProxy } from "../helpers/forward-proxy";
import { removeTempDirs, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider, odsConfig } from "./harness";

let emu: EmulatorHandle;
let proxy: HttpProxy;
let cliConfig: string;

beforeAll(async () => {
  if (!hasTerraform) return;
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  proxy = await startHttpProxy();
  cliConfig = installProvider();
});
afterAll(async () => {
  await proxy?.close();
  await emu?.close();
  removeTempDirs();
});

/**
 * Processes running in or from `dir` (terraform starts its providers with a path relative
 * to the working directory, so their working directory is what names them), with their
 * command lines.
 */
function processesIn(dir: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      if (cwd.startsWith(dir) || cmdline.includes(dir)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 2000));

describe.skipIf(!hasTerraform || process.platform !== "linux")("no provider process outlives its terraform command", () => {
  it("after apply and plan, and after `terraform plan | head -2`", { timeout: 240_000 }, async () => {
    const secrets = { GITHUB_TOKEN: "ghp_no_process_left_secret", AWS_SECRET_ACCESS_KEY: "aws-no-process-left-secret" };
    const tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken }, undefined, { HTTP_PROXY: proxy.url, NO_PROXY: undefined, no_proxy: undefined, ...secrets });
    tf.writeConfig(
      odsConfig({
        resource: Object.fromEntries([["ods_role", Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`r${i}`, { name: `left-${i}`, description: "no process left" }]))]]),
      }),
    );
    const init = await tf.run("init");
    expect(init.status, init.out).toBe(0);

    const apply = await tf.run("apply", "-auto-approve");
    expect(apply.status, apply.out).toBe(0);
    expect(proxy.seen.some((line) => line.startsWith(`POST ${emu.url}/`))).toBe(true);
    const plan = await tf.run("plan", "-detailed-exitcode");
    expect(plan.status, plan.out).toBe(0);
    await settle();
    expect(processesIn(tf.dir)).toEqual([]);

    // Terraform dies of SIGPIPE once head has its two lines; its providers are not told.
    tf.writeConfig(odsConfig({ resource: { ods_role: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`r${i}`, { name: `left-${i}`, description: "changed" }])) } }));
    // While it runs, its providers are found the same way: the scan sees them.
    let seenRunning: string[] = [];
    const environs: string[][] = [];
    const piped = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn("sh", ["-c", "terraform plan -no-color -input=false | head -2"], { cwd: tf.dir, env: tf.environment, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (seenRunning.length > 0) return;
        seenRunning = processesIn(tf.dir).filter((p) => p.includes("provider-bundle.js"));
        for (const p of seenRunning) {
          try {
            environs.push(fs.readFileSync(`/proc/${p.split(":")[0]}/environ`, "utf8").split("\0").filter(Boolean));
          } catch {
            // ended meanwhile
          }
        }
      });
      child.stderr.on("data", (d: Buffer) => (out += d.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
    expect(piped.out.split("\n").filter(Boolean).length).toBeLessThanOrEqual(2);
    expect(seenRunning.length).toBeGreaterThan(0);
    expect(environs.length).toBeGreaterThan(0);
    for (const environ of environs) {
      const names = environ.map((entry) => entry.slice(0, entry.indexOf("=")));
      expect(names).toContain("ODS_TOKEN");
      expect(names.filter((name) => !isAllowedEnvName(name))).toEqual([]);
      for (const secret of Object.values(secrets)) expect(environ.join("\n")).not.toContain(secret);
    }
    await settle();
    expect(processesIn(tf.dir)).toEqual([]);
  });
});
