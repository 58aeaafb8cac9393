// A newcomer follows docs/guides alone, from a fresh clone to a stack deployed through
// Terraform: this test runs the shell blocks the guides mark `guide-test: run`, in order,
// in one shell, in a copy of the repository (the files git would clone, plus the
// checkout's node_modules and build output in place of what `npm ci` downloads and
// builds), against the emulator the guide starts, with the real terraform and the
// offline mirror of `ods terraform install`.
// Skipped, with the reason printed, when terraform is not on PATH.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasTerraform } from "../terraform/harness";
import { scriptOf, shellBlocks } from "./guide-blocks";

const ROOT = path.resolve(__dirname, "../..");
const GUIDES = ["docs/guides/getting-started.md", "docs/guides/terraform-and-cdktf.md"];

/** The files a clone holds: tracked and new ones, as they are in the working tree (what is being changed is what is tested). */
function copyCheckout(dest: string): void {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const rel of listed.stdout.split("\0").filter(Boolean)) {
    const from = path.join(ROOT, rel);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(dest, rel)), { recursive: true });
    fs.copyFileSync(from, path.join(dest, rel));
  }
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dest, "node_modules"), "dir");
}

/**
 * Output goes to a file, not a pipe: a process a guide leaves running in the background
 * would hold a pipe open and keep the test waiting after the shell has ended.
 */
/** lib/ and the compiled examples, the build's output (ignored by git, so not in the copy). */
function copyBuildOutput(dest: string): void {
  if (!fs.existsSync(path.join(ROOT, "lib/cli/main.js"))) throw new Error("lib/ is not built: run npm run build first (npm test does)");
  fs.cpSync(path.join(ROOT, "lib"), path.join(dest, "lib"), { recursive: true });
  const compiled = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === "cdktf.out" || e.name === "node_modules" ? [] : compiled(p);
      return e.name.endsWith(".js") && fs.existsSync(p.replace(/\.js$/, ".ts")) ? [p] : [];
    });
  for (const js of compiled(path.join(ROOT, "examples"))) fs.copyFileSync(js, path.join(dest, path.relative(ROOT, js)));
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): { status: number | null; out: string } {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ods-guide-log-")), "out.log");
  const fd = fs.openSync(log, "w");
  try {
    const r = spawnSync(command, args, { cwd, env, stdio: ["ignore", fd, fd], timeout: timeoutMs, killSignal: "SIGKILL" });
    // Terraform colours its output; the assertions read the words.
    const out = fs.readFileSync(log, "utf8").replace(/\x1b\[[0-9;]*m/g, "");
    return { status: r.status, out: `${out}${r.error ? `\n${String(r.error)}` : ""}` };
  } finally {
    fs.closeSync(fd);
    fs.rmSync(path.dirname(log), { recursive: true, force: true });
  }
}

describe("the commands of the guides", () => {
  it("every shell block of the guides is marked to run or to skip, with a reason", () => {
    for (const guide of GUIDES) {
      const blocks = shellBlocks(fs.readFileSync(path.join(ROOT, guide), "utf8"), guide);
      expect(blocks.filter((b) => b.run).length, `${guide} runs no block`).toBeGreaterThan(0);
      for (const b of blocks.filter((x) => !x.run)) expect(b.skipReason, `${guide}:${b.line}`).toMatch(/\w{3,}/);
    }
  });

  describe.skipIf(!hasTerraform)("run in a copy of the repository", () => {
    let work: string;
    let env: NodeJS.ProcessEnv;

    beforeAll(() => {
      work = fs.mkdtempSync(path.join(os.tmpdir(), "ods-guides-"));
      const repo = path.join(work, "repo");
      copyCheckout(repo);
      env = { ...process.env, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", ODS_PROVIDER_CACHE_DIR: path.join(work, "provider-cache") };
      for (const v of ["ODS_URL", "ODS_TOKEN", "ODS_ORG_ID", "TF_CLI_CONFIG_FILE", "TF_CLI_ARGS_providers_lock", "TF_REATTACH_PROVIDERS", "TF_DATA_DIR"]) delete env[v];
      // What `npm ci` does after its download is `npm run build`, which npm test has just run
      // on these same sources: its output is copied rather than built a second time.
      copyBuildOutput(repo);
    }, 120_000);

    afterAll(() => {
      // A guide that failed half-way leaves its emulator running: each wrote its pid under .ods/.
      const ods = path.join(work, "repo/.ods");
      for (const f of fs.existsSync(ods) ? fs.readdirSync(ods).filter((n) => n.endsWith(".pid")) : []) {
        const pid = Number(fs.readFileSync(path.join(ods, f), "utf8").trim());
        try {
          // Only while that pid is still this copy's emulator: a stopped one's pid may be reused.
          const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
          const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
          if (cmdline.includes("emulator") && cwd.startsWith(work)) process.kill(pid, "SIGTERM");
        } catch {
          // already stopped by the guide itself
        }
      }
      fs.rmSync(work, { recursive: true, force: true });
    });

    it("getting-started: npm start, an emulator, the offline mirror, terraform apply, nothing left to change", () => {
      const guide = GUIDES[0]!;
      const script = scriptOf(shellBlocks(fs.readFileSync(path.join(ROOT, guide), "utf8"), guide), guide);
      const r = run("bash", ["-c", script], path.join(work, "repo"), { ...env, HOME: work }, 420_000);
      expect(r.status, r.out).toBe(0);
      expect(r.out).toContain("Apply complete!"); // terraform apply deployed the staging stack
      expect(r.out).toMatch(/No changes\. Your infrastructure matches the configuration\./); // terraform plan after it
      expect(r.out).toContain("No changes. The live service matches the configuration."); // ods plan reads terraform's state
      expect(fs.existsSync(path.join(work, "repo/examples/environments/terraform.staging.tfstate"))).toBe(true);
      expect(r.out).not.toContain(readToken(work));
    }, 480_000);

    it("terraform-and-cdktf: the Terraform path's blocks run as written", () => {
      const guide = GUIDES[1]!;
      const script = scriptOf(shellBlocks(fs.readFileSync(path.join(ROOT, guide), "utf8"), guide), guide);
      const r = run("bash", ["-c", script], path.join(work, "repo"), { ...env, HOME: work }, 420_000);
      expect(r.status, r.out).toBe(0);
      expect(r.out).toContain("Apply complete!");
    }, 480_000);
  });
});

/** The emulator's admin token, which no guide command may print. */
function readToken(work: string): string {
  const file = path.join(work, "repo/.ods/emulator/credentials.json");
  const { token } = JSON.parse(fs.readFileSync(file, "utf8")) as { token?: string };
  if (!token) throw new Error(`no token in ${file}`);
  return token;
}
