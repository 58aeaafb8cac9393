// A git repository as a team keeps one: cdktf.json whose app writes the synthesized stack
// (a small node script, so that a round's synthesis is real and quick), and the stack's
// configuration in stack.json. Commits are made with the real git.
import { spawnSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";
import { ODS_BIN } from "../helpers/ods-cli";

const SYNTH_APP = `// Writes the stack of stack.json as cdktf synth would.
const fs = require("fs");
const path = require("path");
const out = process.env.CDKTF_OUTDIR;
const stack = JSON.parse(fs.readFileSync("stack.json", "utf8"));
const dir = path.join(out, "stacks", "app");
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, "cdk.tf.json"), JSON.stringify(stack, null, 2));
fs.writeFileSync(path.join(out, "manifest.json"), JSON.stringify({ version: "0.21.0", stacks: { app: { name: "app", constructPath: "app", dependencies: [], synthesizedStackPath: "stacks/app/cdk.tf.json", workingDirectory: "stacks/app", annotations: [] } } }, null, 2));
`;

function git(dir: string, args: string[]): string {
  const r = spawnSync("git", args, {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: dir, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com", GIT_CONFIG_NOSYSTEM: "1" },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

type Block = Record<string, unknown>;

/** A stack of cdk.tf.json form from `{type: {name: attributes}}`, with construct paths. */
export function stackJson(resources: Record<string, Record<string, Block>>, backend?: Record<string, Block>): Block {
  const withMeta: Record<string, Record<string, Block>> = {};
  for (const [type, byName] of Object.entries(resources)) {
    withMeta[type] = {};
    for (const [name, attrs] of Object.entries(byName)) withMeta[type][name] = { "//": { metadata: { path: `app/${name}`, uniqueId: name } }, ...attrs };
  }
  return { ...(backend ? { terraform: { backend } } : {}), provider: { ods: [{}] }, resource: withMeta };
}

export class Repo {
  constructor(readonly dir: string) {}

  static create(dir: string, stack: Block): Repo {
    fs.mkdirSync(dir, { recursive: true });
    git(dir, ["init", "--quiet", "--initial-branch=main"]);
    fs.writeFileSync(path.join(dir, "cdktf.json"), JSON.stringify({ app: "node synth.js", language: "typescript" }, null, 2));
    fs.writeFileSync(path.join(dir, "synth.js"), SYNTH_APP);
    const repo = new Repo(dir);
    repo.commit(stack, "first revision");
    return repo;
  }

  /** Commits a new stack.json; answers the commit. */
  commit(stack: Block, message: string): string {
    fs.writeFileSync(path.join(this.dir, "stack.json"), JSON.stringify(stack, null, 2));
    git(this.dir, ["add", "-A"]);
    git(this.dir, ["commit", "--quiet", "-m", message]);
    return this.head();
  }

  head(): string {
    return git(this.dir, ["rev-parse", "HEAD"]);
  }
}

export interface StackStatusView {
  name: string;
  revision: string | null;
  lastReconcile: { result: string; at: string; requests: number; error?: string } | null;
  drifted: { address: string; kind: string; attributes: { path: string; live: unknown; desired: unknown }[] }[];
  pendingPlan: { file: string; outDir: string; command: string; revision: string } | null;
}

/** A running `ods watch`: its output as it comes, its endpoints once it listens. */
export class WatchProcess {
  stdout = "";
  stderr = "";
  url: string | undefined;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly child: ChildProcess;

  constructor(args: string[], opts: { cwd: string; env: Record<string, string | undefined> }) {
    this.child = spawn(process.execPath, [ODS_BIN, "watch", ...args, "--log-format", "json", "--listen", "127.0.0.1:0"], {
      cwd: opts.cwd,
      env: { ...process.env, CHECKPOINT_DISABLE: "1", ODS_URL: undefined, ODS_TOKEN: undefined, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child.stdout!.on("data", (d: Buffer) => {
      this.stdout += d.toString();
      const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(this.stdout);
      if (m) this.url = m[1];
    });
    this.child.stderr!.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => this.child.on("close", (code, signal) => resolve({ code, signal })));
  }

  /** The JSON log lines written so far. */
  lines(): Record<string, unknown>[] {
    return this.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  async get(pathname: string): Promise<{ status: number; body: string }> {
    if (!this.url) throw new Error(`not listening yet; stderr: ${this.stderr}`);
    return new Promise((resolve, reject) => {
      http.get(`${this.url}${pathname}`, (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      }).on("error", reject);
    });
  }

  async stack(name: string): Promise<StackStatusView | undefined> {
    const r = await this.get("/status");
    return (JSON.parse(r.body) as { stacks: StackStatusView[] }).stacks.find((s) => s.name === name);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }
}

/** Waits (polling every 200 ms, bounded) until `check` answers something; throws naming `what`. */
export async function eventually<T>(what: string, ms: number, check: () => Promise<T | undefined> | T | undefined, context?: () => string): Promise<T> {
  const end = Date.now() + ms;
  let lastError: unknown;
  while (Date.now() < end) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      lastError = e;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ""}${context ? `\n${context()}` : ""}`);
}

/** Processes (other than this one) whose working directory or command line is under `dir`. */
export function processesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    if (Number(pid) === process.pid) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
      if (cwd.startsWith(dir) || cmd.includes(dir)) found.push(`${pid}: ${cmd}`);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}
