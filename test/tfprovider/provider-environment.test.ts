// What the kernel keeps of a provider process's environment (/proc/PID/environ): the
// package's launcher starts the real bundle with the allowlisted variables alone, so the
// shell's cloud credentials and CI tokens are not there, even though Terraform started
// the launcher with them. Deleting from process.env inside Node would not show here.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isAllowedEnvName } from "../../src/api/allowed-env";
import { providerPackageFiles } from "../../src/tfprovider/install";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../src/tfprovider/protocol/handshake";

const BUNDLE = path.join(__dirname, "../../lib/bundle/terraform-provider-ods.js");

/** Starts the package's executable as Terraform would, reads its environ once the handshake line is out, then stops it. */
function environOfServingProvider(executable: string, env: NodeJS.ProcessEnv): Promise<{ pid: number; environ: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, [], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no handshake line within 30 s: ${err}`));
    }, 30_000);
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (!out.includes("\n")) return;
      clearTimeout(timer);
      try {
        // The launcher execs env, which execs node: one pid throughout.
        const environ = fs.readFileSync(`/proc/${child.pid}/environ`, "utf8").split("\0").filter(Boolean);
        resolve({ pid: child.pid!, environ });
      } catch (e) {
        reject(e as Error);
      } finally {
        child.kill("SIGTERM");
      }
    });
    child.on("error", reject);
  });
}

describe.skipIf(process.platform !== "linux")("the provider process's environment, as the kernel keeps it", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tfp-environ-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("holds only the allowlisted variables, values intact; the shell's secrets are not there", async () => {
    const { executable, files } = providerPackageFiles({ source: "registry.terraform.io/ods/ods", version: "0.1.0", bundle: fs.readFileSync(BUNDLE) });
    for (const [name, data] of files) fs.writeFileSync(path.join(dir, name), data, { mode: 0o755 });
    const shell: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: "/home/ci",
      LC_ALL: "C.UTF-8",
      [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
      PLUGIN_PROTOCOL_VERSIONS: "5,6",
      PLUGIN_UNIX_SOCKET_DIR: dir,
      TF_LOG_PROVIDER: "warn",
      HTTPS_PROXY: "http://user:pass@proxy.invalid:3128",
      NO_PROXY: "127.0.0.1",
      ODS_URL: "http://127.0.0.1:9",
      // A value holding newlines, quotes, $ and a line that looks like an assignment.
      ODS_TOKEN: "tok\nGITHUB_TOKEN=planted 'q' \"d\" $HOME `x`",
      NODE_EXTRA_CA_CERTS: "/etc/corp ca.pem",
      GITHUB_TOKEN: "ghp_environ_secret",
      AWS_SECRET_ACCESS_KEY: "aws-environ-secret",
      TF_VAR_db_password: "tf-var-secret",
      TF_TOKEN_app_terraform_io: "tfc-secret",
      // A multi-line value whose second line names an allowed variable that is not set.
      NOTES: "first\nODS_PLANTED=1",
      // A name sh cannot hold.
      "SECRET.DOTTED": "dotted-secret",
    };
    const { environ } = await environOfServingProvider(path.join(dir, executable), shell);
    const expected = Object.entries(shell)
      .filter(([name]) => isAllowedEnvName(name) && name !== "NODE_EXTRA_CA_CERTS")
      .map(([name, value]) => `${name}=${value}`)
      // The launcher hands the CA bundle over under this name (src/api/deferred-ca.ts).
      .concat(["ODS_DEFERRED_EXTRA_CA_CERTS=/etc/corp ca.pem"]);
    expect([...environ].sort()).toEqual(expected.sort());
    const text = environ.join("\n");
    for (const secret of ["ghp_environ_secret", "aws-environ-secret", "tf-var-secret", "tfc-secret", "dotted-secret", "ODS_PLANTED"]) expect(text).not.toContain(secret);
  });
});
