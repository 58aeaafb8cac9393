// SIGKILL of `terraform apply` (terraform and its provider plugin) at seeded random points:
// after the k-th "Creating..." plus a random delay, so that a create may have reached the
// service while Terraform never wrote its state. The next `terraform apply` adopts such an
// object by natural key, as its own create made it (see tfprovider/creation-evidence.ts):
// every trial ends with 0 duplicates and a plan with nothing to do.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { leakedSecrets, removeTempDirs, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider, odsConfig } from "../terraform/harness";
import { emptyCounts, findDuplicates, FULL, recordSuite, seeded } from "./helpers";

const TRIALS = FULL ? 12 : 2;
const N = FULL ? 30 : 12;
const SEED = Number(process.env.ODS_RELIABILITY_SEED ?? 11);

let emu: EmulatorHandle;
let admin: OdsClient;
let cliConfig: string;
const counts = emptyCounts();
const outputs: string[] = [];
const secrets: string[] = [];

beforeAll(async () => {
  if (!hasTerraform) return;
  // Some latency so that creates are in flight when the kill lands.
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), faults: `latency=5-25ms,seed=${SEED}`, rateLimitPerSecond: 100_000 });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  secrets.push(emu.adminToken);
  cliConfig = installProvider();
}, 120_000);
afterAll(async () => {
  counts.secretsLeaked = leakedSecrets(outputs, secrets).length;
  recordSuite("terraform-kill", counts);
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

/** N resources over the kinds that need no ingested data: datasets, virtual fields, notifiers, roles, tokens. */
function resources(prefix: string, n: number): { resource: Record<string, Record<string, Record<string, unknown>>>; expected: Record<string, number> } {
  const resource: Record<string, Record<string, Record<string, unknown>>> = { ods_dataset: {}, ods_virtual_field: {}, ods_notifier: {}, ods_role: {}, ods_api_token: {} };
  for (let i = 0; i < n; i++) {
    switch (i % 5) {
      case 0:
        resource.ods_dataset[`d${i}`] = { name: `${prefix}-d${i}`, allow_destroy: true };
        break;
      case 1:
        resource.ods_virtual_field[`v${i}`] = { dataset: `\${ods_dataset.d${i - 1}.name}`, name: `v${i}`, expression: "a * 2" };
        break;
      case 2: {
        const secret = `${prefix}-hook-secret-${i}`;
        secrets.push(secret);
        resource.ods_notifier[`n${i}`] = { name: `${prefix}-n${i}`, properties: { custom_webhook: { url: `https://hooks.example.com/${i}`, secret_headers: { Authorization: secret } } } };
        break;
      }
      case 3:
        resource.ods_role[`r${i}`] = { name: `${prefix}-r${i}`, org_capabilities: { datasets: ["read"] } };
        break;
      default:
        resource.ods_api_token[`t${i}`] = { name: `${prefix}-t${i}`, rotation_grace_period: "0s" };
    }
  }
  const expected = Object.fromEntries(Object.entries(resource).map(([k, v]) => [k, Object.keys(v).length]).filter(([, c]) => (c as number) > 0));
  return { resource, expected };
}

describe.skipIf(!hasTerraform)("crash: SIGKILL part-way through terraform apply", () => {
  it(`${TRIALS} seeded kills (seed ${SEED}); the next terraform apply makes no second object`, { timeout: TRIALS * 120_000 }, async () => {
    const random = seeded(SEED);
    const problems: string[] = [];
    for (let t = 0; t < TRIALS; t++) {
      const prefix = `tfkill${t}`;
      const { resource, expected } = resources(prefix, N);
      const tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken });
      tf.writeConfig(odsConfig({ resource }));
      const init = await tf.run("init");
      if (init.status !== 0) throw new Error(init.out);
      const killAfter = 1 + Math.floor(random() * (N - 1));
      const delayMs = Math.floor(random() * 40);
      let kill: () => void = () => undefined;
      let started = 0;
      let killing = false;
      const running = tf.runKillable((k) => (kill = k), "apply", "-auto-approve");
      // Bounded: the apply ends by itself or is killed; the poll stops with it.
      let done = false;
      const finished = running.then((r) => {
        done = true;
        return r;
      });
      const watch = (async (): Promise<void> => {
        for (let i = 0; i < 6000 && !done && !killing; i++) {
          await new Promise((r) => setTimeout(r, 5));
          started = tf.lastOutput().split("\n").filter((l) => /: Creating\.\.\.$/.test(l)).length;
          if (started >= killAfter) {
            killing = true;
            setTimeout(() => kill(), delayMs);
          }
        }
      })();
      const killed = await finished;
      await watch;
      outputs.push(killed.out);
      counts.trials++;
      const where = `trial ${t} (kill after create ${killAfter} + ${delayMs} ms, ${killing ? "killed" : `finished first, exit ${killed.status}`})`;

      const again = await tf.run("apply", "-auto-approve");
      outputs.push(again.out);
      if (again.status !== 0) problems.push(`${where}: the next apply failed: ${again.out.slice(-1500)}`);
      const plan = await tf.run("plan", "-detailed-exitcode");
      outputs.push(plan.out);
      if (plan.status !== 0) problems.push(`${where}: not converged, plan exit ${plan.status}`);

      const datasets = Object.values(resource.ods_dataset).map((d) => String(d.name));
      const dup = await findDuplicates(admin, prefix, datasets);
      counts.duplicates += dup.duplicates;
      if (dup.details.length) problems.push(`${where}: duplicates ${dup.details.join("; ")}`);
      for (const [kind, count] of Object.entries(expected)) {
        if ((dup.counts[kind] ?? 0) !== count) problems.push(`${where}: ${dup.counts[kind] ?? 0} live ${kind}, expected ${count}`);
      }
    }
    counts.failures.push(...problems);
    console.log(`terraform kill trials: ${counts.trials}, duplicates found: ${counts.duplicates}`);
    expect(problems).toEqual([]);
    expect(counts.duplicates).toBe(0);
    expect(leakedSecrets(outputs, secrets)).toEqual([]);
  });
});
