// The environment a process of ours keeps: its own settings, Terraform's plugin and log
// variables, proxies, CA bundles and what Node needs; never the rest of the shell's (cloud
// credentials, CI tokens). And the helper `ods` starts while it holds the local state's
// lock (a perl process) is started with that part only: its /proc environ shows no secret.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowedEnvironment, keepAllowedEnvironment } from "../../src/api/allowed-env";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";

const SHELL = {
  ODS_URL: "https://ods.example",
  ODS_TOKEN: "ods-token-value",
  TF_LOG: "debug",
  TF_LOG_PROVIDER: "trace",
  TF_PLUGIN_MAGIC_COOKIE: "cookie",
  PLUGIN_PROTOCOL_VERSIONS: "6",
  PLUGIN_CLIENT_CERT: "pem",
  HTTPS_PROXY: "http://proxy:3128",
  no_proxy: "localhost",
  ALL_PROXY: "http://fallback:3128",
  NODE_EXTRA_CA_CERTS: "/etc/ca.pem",
  SSL_CERT_FILE: "/etc/ssl/cert.pem",
  PATH: "/usr/bin",
  HOME: "/home/ci",
  TMPDIR: "/tmp",
  LC_ALL: "C.UTF-8",
  GITHUB_TOKEN: "ghp_secret",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  TF_VAR_db_password: "tf-var-secret",
  TF_TOKEN_app_terraform_io: "tfc-secret",
};
const DROPPED = ["GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "TF_VAR_db_password", "TF_TOKEN_app_terraform_io"];

describe("the allowed environment", () => {
  it("keeps what a provider or helper needs and drops the rest of the shell's", () => {
    const kept = allowedEnvironment(SHELL);
    expect(Object.keys(kept).sort()).toEqual(Object.keys(SHELL).filter((k) => !DROPPED.includes(k)).sort());
    const own: NodeJS.ProcessEnv = { ...SHELL };
    keepAllowedEnvironment(own);
    expect(own).toEqual(kept);
  });
});

describe.skipIf(process.platform !== "linux")("the local backend's lock holder", () => {
  let emu: EmulatorHandle;
  beforeAll(async () => {
    // Slow answers keep the apply, and so the lock, open long enough to look at its holder.
    emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), faults: "latency=150ms" });
  });
  afterAll(async () => {
    await emu.close();
    removeTempDirs();
  });

  it("runs without the shell's secrets in its environment", async () => {
    const dir = tempDir();
    writeStack(dir, { resource: { ods_role: Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`r${i}`, { name: `env-${i}`, description: "env" }])) } });
    const seen: string[] = [];
    let holderPid: number | undefined;
    const r = await runOds(["apply", "--auto-approve", "--parallelism", "1", ...stackFlags(dir)], {
      env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, GITHUB_TOKEN: "ghp_lock_holder_secret" },
      onStdout: (_chunk, child) => {
        if (holderPid !== undefined) return;
        for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
          try {
            const stat = fs.readFileSync(path.join("/proc", pid, "stat"), "utf8");
            if (Number(stat.split(") ")[1].split(" ")[1]) !== child.pid) continue;
            if (!fs.readFileSync(path.join("/proc", pid, "cmdline"), "utf8").startsWith("perl")) continue;
            holderPid = Number(pid);
            seen.push(...fs.readFileSync(path.join("/proc", pid, "environ"), "utf8").split("\0"));
          } catch {
            // gone meanwhile
          }
        }
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(holderPid).toBeDefined();
    expect(seen.some((v) => v.startsWith("PATH="))).toBe(true);
    expect(seen.filter((v) => v.includes("ghp_lock_holder_secret"))).toEqual([]);
  });
});
