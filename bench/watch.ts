// `npm run bench:watch`: the requests one round of `ods watch` sends for a stack of 1,000
// resources over every kind, and how the rate budget spreads them. A git repository holds
// the synthesized stack (the watcher runs with --no-synth); each round is `ods watch --once`
// against an emulator in its own process, whose request log is the count. Rounds: the
// first apply, a round with nothing to do, drift in 10 roles reported, then corrected, and
// a new commit with every 10th resource changed. Last, the round with nothing to do against
// an emulator limited to 20 requests/s, at a budget of 50% and of 100%: the highest number
// of requests in any one second, and the round's time.
//
// Settings (environment): BENCH_WATCH_N=1000
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ODS_BIN, envNumber, prepareDatasets, startEmulatorProcess, summarizeRequests, synthesizeStack, timed, type EmulatorProcess, type RequestRecord } from "./harness";
import { generateStack, layoutOf, resourceCount } from "./stack-gen";

const N = envNumber("BENCH_WATCH_N", 1000);

function git(dir: string, args: string[]): void {
  const r = spawnSync("git", args, {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: dir, GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "bench@example.com", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "bench@example.com" },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

async function commitRevision(repo: string, work: string, prefix: string, revision: number): Promise<void> {
  const dir = path.join(work, `synth-${revision}`);
  await synthesizeStack(generateStack({ n: N, prefix, revision }), dir);
  fs.rmSync(path.join(repo, "cdktf.out"), { recursive: true, force: true });
  fs.cpSync(path.join(dir, "cdktf.out"), path.join(repo, "cdktf.out"), { recursive: true });
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "--quiet", "-m", `revision ${revision}`]);
}

interface Round {
  name: string;
  result: string;
  /** As the watcher counted them (retries included). */
  watcherRequests: number;
  /** As the emulator logged them. */
  served: ReturnType<typeof summarizeRequests>;
  wallMs: number;
  /** The most requests that started in any one second. */
  peakPerSecond: number;
}

function peakPerSecond(records: RequestRecord[]): number {
  const bySecond = new Map<number, number>();
  for (const r of records) {
    const s = Math.floor(Date.parse(r.at) / 1000);
    bySecond.set(s, (bySecond.get(s) ?? 0) + 1);
  }
  return Math.max(0, ...bySecond.values());
}

async function round(name: string, emu: EmulatorProcess, repo: string, work: string, extra: string[] = []): Promise<Round> {
  await emu.resetRequests();
  const args = [
    ODS_BIN, "watch", "--once", "--source", repo, "--no-synth", "--state", path.join(work, "state.json"), "--workdir", path.join(work, "checkout"),
    "--listen", "127.0.0.1:0", "--log-format", "json", "--plan-dir", path.join(work, "plans"), ...extra,
  ];
  const r = await timed(process.execPath, args, { env: { ...process.env, CHECKPOINT_DISABLE: "1", ODS_URL: emu.url, ODS_TOKEN: emu.token }, timeoutMs: 900_000 });
  const line = r.stdout.split("\n").filter((l) => l.includes('"event":"reconcile"')).map((l) => JSON.parse(l) as { result: string; requests: number }).pop();
  if (!line) throw new Error(`${name}: no round line (exit ${r.code}): ${r.stderr.slice(-2000)}${r.stdout.slice(-2000)}`);
  // The emulator's own log includes the requests made by the bench itself: none during a round.
  const records = (await emu.requests()).filter((x) => !x.path.startsWith("/_emulator"));
  const out = { name, result: line.result, watcherRequests: line.requests, served: summarizeRequests(records), wallMs: r.wallMs, peakPerSecond: peakPerSecond(records) };
  process.stderr.write(`${JSON.stringify(out)}\n`);
  return out;
}

/**
 * A long-running watcher's second round: it knows from the first how many requests a round
 * takes, and spreads them over 80% of the interval when they would not fit in 5 seconds
 * of the budget. Answers the round's peak per second and the span of its requests.
 */
async function spreadRound(emu: EmulatorProcess, repo: string, work: string, intervalS: number): Promise<{ requests: number; peakPerSecond: number; spanS: number }> {
  const child = spawn(
    process.execPath,
    [ODS_BIN, "watch", "--source", repo, "--no-synth", "--state", path.join(work, "state.json"), "--workdir", path.join(work, "checkout-spread"),
      "--listen", "127.0.0.1:0", "--log-format", "json", "--interval", `${intervalS}s`, "--jitter", "0%", "--rate-budget", "50%"],
    { env: { ...process.env, CHECKPOINT_DISABLE: "1", ODS_URL: emu.url, ODS_TOKEN: emu.token }, stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  const rounds = (): number => out.split("\n").filter((l) => l.includes('"event":"reconcile"')).length;
  const until = async (n: number): Promise<void> => {
    for (const end = Date.now() + intervalS * 4_000; Date.now() < end; ) {
      if (rounds() >= n) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no round ${n} within ${intervalS * 4} s: ${out.slice(-2000)}`);
  };
  try {
    await until(1);
    await emu.resetRequests();
    await until(2);
    const records = (await emu.requests()).filter((x) => !x.path.startsWith("/_emulator"));
    const times = records.map((r) => Date.parse(r.at)).sort((a, b) => a - b);
    return { requests: records.length, peakPerSecond: peakPerSecond(records), spanS: (times[times.length - 1] - times[0]) / 1000 };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("close", r));
  }
}

async function driftRoles(emu: EmulatorProcess, prefix: string, count: number): Promise<number> {
  const roles = ((await emu.api("GET", "/v2/rbac/roles")).body as { id: string; name: string; description?: string }[]).filter((r) => r.name.startsWith(prefix)).slice(0, count);
  for (const role of roles) {
    const { id, ...body } = role;
    const answer = await emu.api("PUT", `/v2/rbac/roles/${id}`, { ...body, description: "changed by hand" });
    if (answer.status >= 300) throw new Error(`PUT role ${id}: ${answer.status}`);
  }
  return roles.length;
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "ods-bench-watch-"));
  const repo = path.join(work, "repo");
  fs.mkdirSync(repo);
  git(repo, ["init", "--quiet", "--initial-branch=main"]);
  const prefix = "bw";
  const emulators: EmulatorProcess[] = [];
  try {
    const emu = await startEmulatorProcess({ dataDir: path.join(work, "emu"), rateLimit: 100_000 });
    emulators.push(emu);
    const layout = layoutOf(N);
    await prepareDatasets(emu, prefix, layout);
    await commitRevision(repo, work, prefix, 0);
    const resources = resourceCount(generateStack({ n: N, prefix }));
    const rounds: Round[] = [];
    rounds.push(await round("first apply", emu, repo, work));
    rounds.push(await round("nothing to do", emu, repo, work));
    const drifted = await driftRoles(emu, prefix, 10);
    rounds.push(await round(`drift in ${drifted} roles, reported`, emu, repo, work));
    rounds.push(await round(`drift in ${drifted} roles, corrected`, emu, repo, work, ["--on-drift", "correct"]));
    await commitRevision(repo, work, prefix, 1);
    rounds.push(await round("new commit, every 10th resource changed", emu, repo, work));
    await emu.stop();

    // The same round with nothing to do, against a service limited to 20 requests/s.
    const limited = await startEmulatorProcess({ dataDir: path.join(work, "emu"), rateLimit: 20 });
    emulators.push(limited);
    const budgeted: Round[] = [];
    for (const budget of ["50%", "100%"]) budgeted.push(await round(`nothing to do, 20 requests/s, --rate-budget ${budget}`, limited, repo, work, ["--rate-budget", budget]));
    const spread = await spreadRound(limited, repo, work, 30);

    const lines = [
      `ods watch, one round each, stack of ${resources} resources (${layout.datasets} datasets), emulator on 127.0.0.1`,
      "",
      "| round | result | requests (watcher) | served: reads / writes / queries / 429 | peak per second | time |",
      "| --- | --- | --- | --- | --- | --- |",
      ...[...rounds, ...budgeted].map(
        (r) => `| ${r.name} | ${r.result} | ${r.watcherRequests} | ${r.served.reads} / ${r.served.writes} / ${r.served.queries} / ${r.served.status429} | ${r.peakPerSecond} | ${(r.wallMs / 1000).toFixed(1)} s |`,
      ),
      "",
      `Requests per object in a round with nothing to do: ${(rounds[1].served.total / resources).toFixed(3)}`,
      `At 20 requests/s: the 50% budget's peak is ${budgeted[0].peakPerSecond}/s against ${budgeted[1].peakPerSecond}/s at 100%, its round ${(budgeted[0].wallMs / budgeted[1].wallMs).toFixed(2)}x as long.`,
      `A running watcher at 20 requests/s, --rate-budget 50%, --interval 30s: its second round (${spread.requests} requests, more than 5 s of the budget) spread over ${spread.spanS.toFixed(1)} s, peak ${spread.peakPerSecond}/s.`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    const results = path.resolve(__dirname, "..", "results");
    if (fs.existsSync(results)) fs.writeFileSync(path.join(results, "watch.md"), `${lines.join("\n")}\n`);
  } finally {
    for (const e of emulators) await e.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exitCode = 1;
});
