// `npm run bench:profile`: terraform-provider-ods under `terraform apply` (from empty),
// `terraform plan` (no changes) and `terraform apply` (10% changed) of a generated stack
// of N resources, with every provider process profiled:
//   - how many provider processes Terraform starts per command, and each one's time to
//     its handshake line (ODS_PROVIDER_STATS);
//   - gRPC calls by method: count, summed and mean handler time (ODS_PROVIDER_STATS);
//   - a V8 CPU profile of every provider process (ODS_PROVIDER_CPU_PROF), summed over the processes of a command: self time by function and by module.
// Prints a report and writes bench/results/provider-profile.md.
//
// Settings (environment): PROFILE_N=1000  PROFILE_KEEP=DIR (keep the .cpuprofile files)
// PROFILE_STEPS=apply-empty,plan,apply-changed  BENCH_TF_BACKEND=http|local (as in `npm run bench`)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { prepareDatasets, ROOT, startEmulatorProcess, timed } from "./harness";
import { generateStack, layoutOf, type GeneratedStack } from "./stack-gen";
import { datasetImports, installProvider, readProviderStats, terraformBackendSetting, terraformMissing, TerraformRunner, withStateBackend, writeTerraformConfig } from "./terraform";

const N = Number(process.env.PROFILE_N ?? 1000);
const KEEP = process.env.PROFILE_KEEP;
/** The steps reported; the others still run (a plan needs the apply before it), unprofiled. */
const STEPS = (process.env.PROFILE_STEPS ?? "apply-empty,plan,apply-changed").split(",").map((x) => x.trim());
const BACKEND = terraformBackendSetting();
const SYNTH_APP = path.join(__dirname, "synth-app.js");

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) by "function url:line" and by module, summed over profiles. */
function selfTimes(files: string[]): { byFunction: Map<string, number>; byModule: Map<string, number>; totalMs: number } {
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  let totalMs = 0;
  for (const file of files) {
    const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    profile.samples.forEach((id, i) => {
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const frame = nodes.get(id);
      if (!frame) return;
      totalMs += ms;
      const url = frame.url.replace(/^file:\/\//, "").replace(ROOT + "/", "");
      const fn = `${frame.functionName || "(anonymous)"} ${url ? `${url}:${frame.lineNumber + 1}` : ""}`.trim();
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
      byModule.set(moduleOf(url, frame.functionName), (byModule.get(moduleOf(url, frame.functionName)) ?? 0) + ms);
    });
  }
  return { byFunction, byModule, totalMs };
}

function moduleOf(url: string, fn: string): string {
  if (!url) return fn.startsWith("(") ? fn : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith("node:")) return "node: internals";
  const own = /^lib\/([^/]+(?:\/[^/]+)?)/.exec(url);
  return own ? `lib/${own[1]}` : url;
}

function top(map: Map<string, number>, count: number): [string, number][] {
  return [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
}

async function synthesize(spec: GeneratedStack, dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const specFile = path.join(dir, "spec.json");
  fs.writeFileSync(specFile, JSON.stringify(spec));
  const r = await timed(process.execPath, [SYNTH_APP, specFile, path.join(dir, "cdktf.out")], { timeoutMs: 600_000 });
  if (r.code !== 0) throw new Error(`synthesis failed: ${r.stderr}`);
}

async function main(): Promise<void> {
  const missing = terraformMissing();
  if (missing) {
    process.stdout.write(`skipped: ${missing}\n`);
    return;
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ods-profile-"));
  const report: string[] = [`# terraform-provider-ods under Terraform, N=${N}, state backend ${BACKEND}`, ""];
  const out = (...lines: string[]): void => {
    for (const line of lines) {
      report.push(line);
      process.stdout.write(`${line}\n`);
    }
  };
  const emu = await startEmulatorProcess({ dataDir: path.join(root, "emu") });
  try {
    const cliConfig = installProvider(path.join(root, "mirror"));
    await prepareDatasets(emu, "tf", layoutOf(N));
    const work = path.join(root, "work");
    const base = generateStack({ n: N, prefix: "tf" });
    const imports = datasetImports(base);
    await synthesize(base, path.join(root, "synth"));
    writeTerraformConfig(path.join(root, "synth/cdktf.out/stacks/main/cdk.tf.json"), work, imports);
    await withStateBackend(work, BACKEND, async () => {
      const tf = new TerraformRunner(work, cliConfig, emu);
      const init = await tf.run(["init"]);
      if (init.code !== 0) throw new Error(`terraform init failed: ${init.stdout}${init.stderr}`);

      const steps: [string, string[], (() => Promise<void>) | undefined][] = [
        ["apply-empty", ["apply", "-auto-approve"], undefined],
        ["plan", ["plan", "-detailed-exitcode"], undefined],
        [
          "apply-changed",
          ["apply", "-auto-approve"],
          async () => {
            await synthesize(generateStack({ n: N, prefix: "tf", revision: 1 }), path.join(root, "synth"));
            writeTerraformConfig(path.join(root, "synth/cdktf.out/stacks/main/cdk.tf.json"), work, imports);
          },
        ],
      ];
      for (const [label, args, before] of steps) {
        await before?.();
        const profDir = path.join(KEEP ?? root, `prof-${label}`);
        fs.mkdirSync(profDir, { recursive: true });
        const statsFile = path.join(root, `${label}.stats`);
        const profiled = STEPS.includes(label);
        const r = await tf.run(args, profiled ? { env: { ODS_PROVIDER_CPU_PROF: profDir, ODS_PROVIDER_STATS: statsFile } } : {});
        if (r.code !== 0) throw new Error(`terraform ${label} exited ${r.code}: ${r.stderr.slice(0, 3000)}`);
        if (!profiled) continue;
        const stats = readProviderStats(statsFile);
        out(`## terraform ${args[0]} (${label}): ${(r.wallMs / 1000).toFixed(2)} s wall`, "");
        out(`Provider processes started: ${stats.length}; handshake after ${stats.map((s) => `${s.handshakeMs.toFixed(0)} ms`).join(", ")} (from process start); lifetimes ${stats.map((s) => `${(s.lifeMs / 1000).toFixed(2)} s`).join(", ")}; CPU ${stats.map((s) => `${(s.cpuMs / 1000).toFixed(2)} s`).join(", ")}.`);
        out("");
        const rpcs = new Map<string, { count: number; totalMs: number }>();
        for (const s of stats) {
          for (const [rpc, v] of Object.entries(s.rpcs)) {
            const acc = rpcs.get(rpc) ?? { count: 0, totalMs: 0 };
            acc.count += v.count;
            acc.totalMs += v.totalMs;
            rpcs.set(rpc, acc);
          }
        }
        out("| RPC | calls | handler ms (sum) | mean ms |", "|---|---:|---:|---:|");
        for (const [rpc, v] of [...rpcs.entries()].sort((a, b) => b[1].totalMs - a[1].totalMs)) {
          out(`| ${rpc} | ${v.count} | ${v.totalMs.toFixed(0)} | ${(v.totalMs / v.count).toFixed(2)} |`);
        }
        const profiles = fs.readdirSync(profDir).filter((f) => f.endsWith(".cpuprofile")).map((f) => path.join(profDir, f));
        const cpu = selfTimes(profiles);
        out("", `CPU (sampled, ${profiles.length} processes): ${(cpu.totalMs / 1000).toFixed(2)} s in total, idle included.`, "");
        out("| module | self ms |", "|---|---:|");
        for (const [m, ms] of top(cpu.byModule, 12)) out(`| ${m} | ${ms.toFixed(0)} |`);
        out("", "| function | self ms |", "|---|---:|");
        for (const [f, ms] of top(cpu.byFunction, 25)) out(`| ${f.replace(/\|/g, "\\|")} | ${ms.toFixed(0)} |`);
        out("");
      }
    });
    fs.mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
    fs.writeFileSync(path.join(ROOT, "bench/results/provider-profile.md"), `${report.join("\n")}\n`);
    process.stdout.write("written: bench/results/provider-profile.md\n");
  } finally {
    await emu.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
