// Shared by the emulator tests: a real emulator on 127.0.0.1 with a temp data dir, and
// raw fetch calls against it (no client code from src/api: the tests check the wire).
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from "../../src/emulator";

export function tempDir(prefix = "ods-emu-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface Reply {
  status: number;
  headers: Headers;
  // JSON of any shape: the tests read nested fields of answers directly.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface CallOptions {
  body?: unknown;
  /** Bearer token; null sends no Authorization header. Default: the admin token. */
  token?: string | null;
  headers?: Record<string, string>;
  /** A raw body, sent as is (for malformed JSON and size tests). */
  raw?: string | Buffer;
}

export interface TestEmulator {
  em: EmulatorHandle;
  dir: string;
  call(method: string, urlPath: string, opts?: CallOptions): Promise<Reply>;
  /** Calls that must succeed (2xx); answers the body. */
  ok(method: string, urlPath: string, body?: unknown, token?: string): Promise<Reply["body"]>;
  close(): Promise<void>;
}

export async function call(base: string, adminToken: string, method: string, urlPath: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  const token = opts.token === undefined ? adminToken : opts.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  let body: string | Buffer | undefined = opts.raw;
  if (body === undefined && opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["Content-Type"] ??= "application/json";
  const res = await fetch(base + urlPath, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text !== "") {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** Starts an emulator in a fresh temp dir; a high rate limit unless the test sets one. */
export async function startTestEmulator(opts: Partial<EmulatorOptions> = {}): Promise<TestEmulator> {
  const dir = opts.dataDir ?? tempDir();
  const em = await startEmulator({ port: 0, rateLimitPerSecond: 100_000, ...opts, dataDir: dir });
  const t: TestEmulator = {
    em,
    dir,
    call: (method, urlPath, o) => call(em.url, em.adminToken, method, urlPath, o),
    ok: async (method, urlPath, body, token) => {
      const reply = await call(em.url, em.adminToken, method, urlPath, { body, token });
      if (reply.status >= 300) throw new Error(`${method} ${urlPath} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
      return reply.body;
    },
    close: () => em.close(),
  };
  return t;
}

/** Creates a token with exactly these capabilities; answers its secret. */
export async function tokenWith(t: TestEmulator, caps: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await t.ok("POST", "/v2/tokens", { name: "scoped", ...caps, ...extra });
  return created.token as string;
}

const CRUD = ["create", "read", "update", "delete"];
/** Every org capability and its actions, by the contract's wire names (docs/service-contract.md, section 3). */
export const ORG_GRANTS: Record<string, string[]> = {
  annotations: CRUD, apiTokens: CRUD, auditLog: ["read"], billing: ["read", "update"], dashboards: CRUD, datasets: CRUD,
  endpoints: CRUD, flows: CRUD, integrations: CRUD, monitors: CRUD, notifiers: CRUD, rbac: CRUD,
  sharedAccessKeys: ["read", "update"], users: CRUD, views: CRUD,
};
/** Every dataset capability and its actions. */
export const DATASET_GRANTS: Record<string, string[]> = {
  ingest: ["create"], query: ["read"], starredQueries: CRUD, virtualFields: CRUD, trim: ["update"], vacuum: ["update"],
  data: ["delete"], share: ["create", "read", "delete"],
};

export const sampleNotifier = {
  name: "on-call",
  properties: { webhook: { url: "https://hooks.example.com/alert" } },
};

/** Emulators started one per test; `closeAll` (in afterEach) stops every one of them. */
export function emulatorPool(): { start(opts?: Partial<EmulatorOptions>): Promise<TestEmulator>; closeAll(): Promise<void> } {
  const running: TestEmulator[] = [];
  return {
    start: async (opts = {}) => {
      const t = await startTestEmulator(opts);
      running.push(t);
      return t;
    },
    closeAll: async () => {
      await Promise.all(running.splice(0).map((t) => t.close()));
    },
  };
}

const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "bin/ods.js");

const children: ChildProcess[] = [];

/** For afterEach: kills what spawnEmulator started and is still running. */
export function killSpawnedEmulators(): void {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

export interface Subprocess {
  child: ChildProcess;
  url: string;
  token: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `ods emulator` from the build (npm test builds first) and reads its two lines. */
export async function spawnEmulator(dataDir: string, extraArgs: readonly string[] = []): Promise<Subprocess> {
  if (!fs.existsSync(path.join(ROOT, "lib/cli/main.js"))) throw new Error("lib/ is missing: run `npm run build` first (npm test does)");
  const child = spawn(process.execPath, [BIN, "emulator", "--port", "0", "--data-dir", dataDir, "--rate-limit", "100000", ...extraArgs], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator did not start within 20 s; stderr: ${stderr}`)), 20_000);
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      const url = /^ODS_URL=(.+)$/m.exec(stdout)?.[1];
      const token = /^ODS_TOKEN=(.+)$/m.exec(stdout)?.[1];
      if (url && token) {
        clearTimeout(timer);
        resolve({ url: url.trim(), token: token.trim() });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited early with ${code}; stderr: ${stderr}`));
    });
  });
  return { child, ...ready, exited };
}
