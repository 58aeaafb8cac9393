// SIGKILL of `ods apply` at seeded random points (right after the k-th call started, plus
// a random delay): each next apply converges, with no duplicate and every token secret.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { datasetName, generateStack, layoutOf } from "../../bench/stack-gen";
import { leakedSecrets, removeTempDirs, runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";
import { asSpec, emptyCounts, expectedCounts, findDuplicates, FULL, prepareDatasets, readStateFile, recordSuite, seeded, tokenSecrets } from "./helpers";

/**
 * ODS_RELIABILITY_LARGE=1 (npm run test:reliability:large): the same trials on a stack of
 * 20,000 resources (ODS_RELIABILITY_LARGE_N), where the state is mostly saved through its
 * journal; the emulator answers at once and without a rate limit, so that the run takes
 * minutes, not hours.
 */
const LARGE = process.env.ODS_RELIABILITY_LARGE === "1";
const TRIALS = LARGE ? Number(process.env.ODS_RELIABILITY_LARGE_TRIALS ?? 3) : FULL ? 20 : 3;
const N = LARGE ? Number(process.env.ODS_RELIABILITY_LARGE_N ?? 20_000) : FULL ? 40 : 24;
const SEED = Number(process.env.ODS_RELIABILITY_SEED ?? 7);
/** Bound of one command: an apply of the whole large stack takes minutes on 2 shared cores. */
const COMMAND_MS = LARGE ? 1_800_000 : 120_000;

let emu: EmulatorHandle;
let admin: OdsClient;
const counts = emptyCounts();
const outputs: string[] = [];
const secrets: string[] = [];

beforeAll(async () => {
  // Some latency so that calls are in flight when the kill lands.
  emu = await startEmulator(
    // The large stack holds a user per eight resources: past the default license's 100.
    LARGE ? { port: 0, dataDir: tempDir("ods-emu-"), rateLimitPerSecond: 1_000_000, license: { maxUsers: 1_000_000 } } : { port: 0, dataDir: tempDir("ods-emu-"), faults: `latency=5-20ms,seed=${SEED}` },
  );
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  secrets.push(emu.adminToken);
});
afterAll(async () => {
  counts.secretsLeaked = leakedSecrets(outputs, secrets).length;
  recordSuite(LARGE ? "crash-large" : "crash", counts);
  await admin.close();
  await emu.close();
  removeTempDirs();
});

describe("crash: SIGKILL part-way through ods apply", () => {
  it(`${TRIALS} seeded kills (seed ${SEED}) at ${N} resources; every next apply converges without duplicates`, { timeout: TRIALS * (LARGE ? 3 * COMMAND_MS : 60_000) }, async () => {
    const random = seeded(SEED);
    const env = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken };
    const problems: string[] = [];
    for (let t = 0; t < TRIALS; t++) {
      const prefix = `crash${t}`;
      const stack = generateStack({ n: N, prefix, tokenGracePeriod: "0s", notifierSecret: (i) => `${prefix}-secret-${SEED}-${i}` });
      secrets.push(...Array.from({ length: N }, (_, i) => `${prefix}-secret-${SEED}-${i}`));
      await prepareDatasets(admin, prefix, N);
      const dir = tempDir();
      writeStack(dir, asSpec(stack));
      // Kill right after the k-th call started, plus 0-30 ms: before, during or after its answer.
      const killAfter = 1 + Math.floor(random() * (N - 1));
      const delayMs = Math.floor(random() * 30);
      let started = 0;
      let killing = false;
      const killed = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], {
        env,
        timeoutMs: COMMAND_MS,
        onStdout: (chunk, child) => {
          started += (chunk.match(/ \.\.\.$/gm) ?? []).length;
          if (!killing && started >= killAfter) {
            killing = true;
            setTimeout(() => child.kill("SIGKILL"), delayMs);
          }
        },
      });
      outputs.push(killed.stdout, killed.stderr);
      counts.trials++;
      const where = `trial ${t} (kill after call ${killAfter} + ${delayMs} ms, ${killed.signal === "SIGKILL" ? "killed" : `finished first, exit ${killed.code}`})`;

      const again = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env, timeoutMs: COMMAND_MS });
      outputs.push(again.stdout, again.stderr);
      if (again.code !== 0) problems.push(`${where}: the next apply failed: ${again.stderr.slice(0, 1500)}`);
      const plan = await runOds(["plan", "--detailed-exitcode", ...stackFlags(dir)], { env, timeoutMs: COMMAND_MS });
      outputs.push(plan.stdout, plan.stderr);
      if (plan.code !== 0) problems.push(`${where}: not converged, plan exit ${plan.code}: ${plan.stdout.split("\n").filter((l) => /^\s*[-+~<]/.test(l)).join("; ")} ${plan.stderr.slice(0, 500)}`);

      const datasets = Array.from({ length: layoutOf(N).datasets }, (_, d) => datasetName(prefix, d));
      const dup = await findDuplicates(admin, prefix, datasets);
      counts.duplicates += dup.duplicates;
      if (dup.details.length) problems.push(`${where}: duplicates ${dup.details.join("; ")}`);
      const expected = expectedCounts(stack);
      for (const [kind, count] of Object.entries(expected)) {
        if (dup.counts[kind] !== count) problems.push(`${where}: ${dup.counts[kind] ?? 0} live ${kind}, expected ${count}`);
      }
      const { secrets: tokens, missing } = tokenSecrets(readStateFile(path.join(dir, "state.json")), stack);
      secrets.push(...tokens);
      if (missing.length) problems.push(`${where}: token secrets missing from state: ${missing.join(", ")}`);
    }
    counts.failures.push(...problems);
    expect(problems).toEqual([]);
    expect(leakedSecrets(outputs, secrets)).toEqual([]);
  });
});
