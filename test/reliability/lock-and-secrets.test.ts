// Two applies at once: one fails on the lock, naming the holder, and the state stays
// intact. Secrets: no stdout, stderr, plan file or error of any command shows a secret
// value (notifier secrets, token secrets from state, bearer tokens); the state is 0600.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { generateStack } from "../../bench/stack-gen";
import { startForwardProxy, twoAtOnce } from "../helpers/forward-proxy";
import { leakedSecrets, removeTempDirs, runOds, stackFlags, tempDir, writeStack, type RunResult } from "../helpers/ods-cli";
import { asSpec, emptyCounts, expectedCounts, findDuplicates, FULL, prepareDatasets, readStateFile, recordSuite, tokenSecrets } from "./helpers";

const LOCK_TRIALS = FULL ? 5 : 1;
const N = FULL ? 60 : 24;

let emu: EmulatorHandle;
let admin: OdsClient;
const counts = emptyCounts();
const texts: string[] = [];
const secrets: string[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), faults: "latency=30ms" });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  secrets.push(emu.adminToken);
});
afterAll(async () => {
  counts.secretsLeaked = leakedSecrets(texts, secrets).length;
  recordSuite("lock-and-secrets", counts);
  await admin.close();
  await emu.close();
  removeTempDirs();
});

const env = (): Record<string, string> => ({ ODS_URL: emu.url, ODS_TOKEN: emu.adminToken });

async function ods(args: string[], dir: string, extra: Record<string, string> = {}): Promise<RunResult> {
  const r = await runOds([...args, ...stackFlags(dir)], { env: { ...env(), ...extra } });
  texts.push(r.stdout, r.stderr);
  return r;
}

function secretStack(prefix: string, revision = 0) {
  return generateStack({
    n: N,
    prefix,
    revision,
    tokenGracePeriod: "0s",
    notifierSecret: (i) => {
      const s = `${prefix}-notifier-secret-r${revision}-${i}`;
      secrets.push(s);
      return s;
    },
  });
}

describe("two applies at once", () => {
  it(`one fails at once on the lock, naming the holder; the state is intact (${LOCK_TRIALS} trials)`, { timeout: LOCK_TRIALS * 60_000 }, async () => {
    for (let t = 0; t < LOCK_TRIALS; t++) {
      const prefix = `lock${t}`;
      const stack = secretStack(prefix);
      await prepareDatasets(admin, prefix, N);
      const dir = tempDir();
      writeStack(dir, asSpec(stack));
      counts.trials++;
      const proxy = await startForwardProxy(emu.url);
      const { first, second: other } = await twoAtOnce(
        proxy,
        (onStdout) => runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: { ...env(), ODS_URL: proxy.url }, onStdout: (chunk) => onStdout(chunk) }),
        () => runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: env() }),
      ).finally(() => proxy.close());
      texts.push(first.stdout, first.stderr, other.stdout, other.stderr);
      const [ok, locked] = [first, other].sort((a, b) => (a.code ?? 9) - (b.code ?? 9));
      expect(ok.code, ok.stderr).toBe(0);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toMatch(/is locked by pid \d+ on \S+ \("ods apply", since \d{4}-/);
      const state = readStateFile(path.join(dir, "state.json"));
      expect(Object.keys(state.resources)).toHaveLength(N);
      expect(tokenSecrets(state, stack).missing).toEqual([]);
      expect(fs.existsSync(path.join(dir, "state.json.lock"))).toBe(false);
      expect((await ods(["plan", "--detailed-exitcode"], dir)).code).toBe(0);
      const dup = await findDuplicates(admin, prefix, Object.values(stack.resource.ods_dataset ?? {}).map((d) => String(d.name)));
      counts.duplicates += dup.duplicates;
      expect(dup.details).toEqual([]);
      expect(dup.counts).toEqual(expectedCounts(stack));
    }
  });
});

describe("secrets never reach output, plan files or errors", () => {
  it("apply, plan (text, JSON, saved file), output, state show, drift, rotation and failing calls show no secret; the state is 0600", { timeout: 180_000 }, async () => {
    const prefix = "sec";
    const base = secretStack(prefix);
    await prepareDatasets(admin, prefix, N);
    const dir = tempDir();
    writeStack(dir, asSpec(base));
    expect((await ods(["apply", "--auto-approve"], dir)).code).toBe(0);
    const stateFile = path.join(dir, "state.json");
    expect(fs.statSync(stateFile).mode & 0o777).toBe(0o600);
    const { secrets: tokens, missing } = tokenSecrets(readStateFile(stateFile), base);
    expect(missing).toEqual([]);
    secrets.push(...tokens);

    // Changed secrets and rotated tokens: the plan shows that they change, never their values.
    writeStack(dir, asSpec(secretStack(prefix, 1)));
    const planFile = path.join(dir, "plan.json");
    const saved = await ods(["plan", "--out", planFile], dir);
    expect(saved.code, saved.stderr).toBe(0);
    texts.push(fs.readFileSync(planFile, "utf8"));
    expect(fs.statSync(planFile).mode & 0o777).toBe(0o600);
    expect((await ods(["plan", "--json"], dir)).code).toBe(0);
    const applied = await ods(["apply", planFile], dir);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/rotated/);
    secrets.push(...tokenSecrets(readStateFile(stateFile), base).secrets);
    expect(fs.statSync(stateFile).mode & 0o777).toBe(0o600);

    for (const name of Object.keys(base.resource.ods_api_token ?? {}).slice(0, 3)) await ods(["state", "show", `ods_api_token.${name}`], dir);
    for (const name of Object.keys(base.resource.ods_notifier ?? {}).slice(0, 4)) await ods(["state", "show", `ods_notifier.${name}`], dir);
    await ods(["output"], dir);
    await ods(["drift"], dir);
    await ods(["state", "list"], dir);

    // Errors: a wrong bearer token, a service that fails every call, a rejected write.
    const wrongToken = "wrong-bearer-token-8d1e44aa";
    secrets.push(wrongToken);
    const denied = await ods(["plan"], dir, { ODS_TOKEN: wrongToken });
    expect(denied.code).toBe(1);
    emu.setFaults("error5xx=1,seed=3");
    try {
      const failing = await ods(["apply", "--auto-approve"], dir);
      expect(failing.code).toBe(1);
    } finally {
      emu.setFaults("latency=30ms");
    }
    const dup = await findDuplicates(admin, prefix, Object.values(base.resource.ods_dataset ?? {}).map((d) => String(d.name)));
    counts.duplicates += dup.duplicates;
    counts.trials++;

    expect(texts.length).toBeGreaterThan(20);
    expect(leakedSecrets(texts, secrets)).toEqual([]);
    // The state holds the token secrets (that is its job) and is readable by its owner only.
    expect(fs.statSync(stateFile).mode & 0o777).toBe(0o600);
  });
});
