// SIGINT and SIGTERM part-way through `ods apply`, at seeded random points (right after the
// k-th call started, plus a random delay): the first signal says it is stopping, lets the
// calls in flight finish, saves the state and exits 130; a second signal forces. The next
// apply converges: exactly the declared objects exist, once each, and the plan is empty.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { datasetName, generateStack, layoutOf } from "../../bench/stack-gen";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";
import { asSpec, expectedCounts, findDuplicates, FULL, prepareDatasets, seeded } from "./helpers";

const N = FULL ? 60 : 40;
const SEED = Number(process.env.ODS_RELIABILITY_SEED ?? 11);
const COMMAND_MS = 120_000;

/** Each trial: the signal, whether a second one follows it (forcing), and the seeded point. */
const TRIALS: { signal: NodeJS.Signals; force: boolean }[] = [
  { signal: "SIGINT", force: false },
  { signal: "SIGTERM", force: false },
  { signal: "SIGINT", force: false },
  { signal: "SIGINT", force: true },
  ...(FULL ? [{ signal: "SIGTERM" as const, force: false }, { signal: "SIGINT" as const, force: true }, { signal: "SIGINT" as const, force: false }] : []),
];

let emu: EmulatorHandle;
let admin: OdsClient;

beforeAll(async () => {
  // Latency, so that calls are in flight when the signal lands.
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), faults: `latency=10-30ms,seed=${SEED}` });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
});
afterAll(async () => {
  await admin.close();
  await emu.close();
  removeTempDirs();
});

describe("interrupt: SIGINT/SIGTERM part-way through ods apply", () => {
  it(`${TRIALS.length} seeded interrupts (seed ${SEED}) at ${N} resources: each stops gently, and the next apply converges`, { timeout: TRIALS.length * 90_000 }, async () => {
    const random = seeded(SEED);
    const env = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken };
    const problems: string[] = [];
    for (const [t, trial] of TRIALS.entries()) {
      const prefix = `intr${t}`;
      const stack = generateStack({ n: N, prefix, tokenGracePeriod: "0s" });
      await prepareDatasets(admin, prefix, N);
      const dir = tempDir();
      writeStack(dir, asSpec(stack));
      const signalAfter = 1 + Math.floor(random() * (N / 2));
      const delayMs = Math.floor(random() * 30);
      let started = 0;
      let sent = false;
      const stopped = await runOds(["apply", "--auto-approve", "--parallelism", "4", ...stackFlags(dir)], {
        env,
        timeoutMs: COMMAND_MS,
        onStdout: (chunk, child) => {
          started += (chunk.match(/ \.\.\.$/gm) ?? []).length;
          if (sent || started < signalAfter) return;
          sent = true;
          setTimeout(() => {
            child.kill(trial.signal);
            if (trial.force) setTimeout(() => child.kill(trial.signal), 5);
          }, delayMs);
        },
      });
      const where = `trial ${t} (${trial.signal}${trial.force ? " twice" : ""} after call ${signalAfter} + ${delayMs} ms)`;
      if (stopped.code === 0) {
        problems.push(`${where}: the apply finished before the signal; pick an earlier point`);
        continue;
      }
      if (stopped.code !== 130) problems.push(`${where}: exit ${stopped.code ?? stopped.signal}, expected 130: ${stopped.stderr.slice(0, 800)}`);
      if (!/received: stopping/.test(stopped.stderr)) problems.push(`${where}: no word that it is stopping: ${stopped.stderr.slice(0, 800)}`);
      if (trial.force) {
        if (!/received again: stopping now/.test(stopped.stderr)) problems.push(`${where}: the second signal did not force: ${stopped.stderr.slice(0, 800)}`);
      } else {
        if (!/Interrupted: \d+ changes? not started/.test(stopped.stderr)) problems.push(`${where}: no count of what was left: ${stopped.stderr.slice(0, 800)}`);
        // Every call that was sent finished and went to the state: nothing to recover.
        if (!/Apply interrupted: /.test(stopped.stdout)) problems.push(`${where}: no summary of what was done: ${stopped.stdout.slice(-800)}`);
      }

      const again = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env, timeoutMs: COMMAND_MS });
      if (again.code !== 0) problems.push(`${where}: the next apply failed (exit ${again.code}): ${again.stderr.slice(0, 1500)}`);
      // A gentle stop leaves no answer unsaved: the next apply finds no object the stopped one
      // made outside its state (a forced one may). Dataset fields are always claimed: ingest made them.
      const recovered = again.stdout.split("\n").filter((l) => /will be adopted/.test(l) && !/ods_dataset_field\./.test(l));
      if (!trial.force && recovered.length > 0) problems.push(`${where}: the next apply had to adopt objects the stopped one made: ${recovered.join("; ")}`);
      const plan = await runOds(["plan", "--detailed-exitcode", ...stackFlags(dir)], { env, timeoutMs: COMMAND_MS });
      if (plan.code !== 0) problems.push(`${where}: not converged, plan exit ${plan.code}: ${plan.stdout.split("\n").filter((l) => /^\s*[-+~<]/.test(l)).join("; ")} ${plan.stderr.slice(0, 500)}`);

      const datasets = Array.from({ length: layoutOf(N).datasets }, (_, d) => datasetName(prefix, d));
      const dup = await findDuplicates(admin, prefix, datasets);
      if (dup.details.length) problems.push(`${where}: duplicates ${dup.details.join("; ")}`);
      for (const [kind, count] of Object.entries(expectedCounts(stack))) {
        if (dup.counts[kind] !== count) problems.push(`${where}: ${dup.counts[kind] ?? 0} live ${kind}, expected ${count}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
