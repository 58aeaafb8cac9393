// `ods watch`: keeps the selected stacks converged from a git branch (pull-based GitOps).
// This module only declares the command; its run (watch-run.ts) and the Prometheus client
// it uses are loaded when the command runs, so that every other command starts as fast.
import { Command, Option } from "commander";
import { parseParallelism, withWorkspaceOptions } from "./reconcile-commands";
import type { WatchOpts } from "./watch-run";

export function registerWatchCommand(program: Command, setExit: (code: number) => void): void {
  withWorkspaceOptions(program.command("watch"))
    .description("Keep the selected stacks converged from a git branch: plan every interval, apply new revisions (or save their plans), report or correct drift; serves a status page at /, and /metrics, /healthz, /readyz and /status.")
    .requiredOption("--source <path-or-url>", "the git repository to follow (a path or a URL git can clone)")
    .option("--branch <name>", "the branch to follow", "main")
    .option("--interval <duration>", "time between rounds (e.g. 30s, 5m)", "5m")
    .option("--jitter <share>", "each wait moves by up to this share of the interval, either way", "10%")
    .addOption(new Option("--on-change <mode>", "a new revision: apply it, or save its plan for `ods apply FILE`").choices(["apply", "plan"]).default("apply"))
    .addOption(new Option("--on-drift <mode>", "drift (live objects changed, the revision did not): report it, or correct it").choices(["report", "correct"]).default("report"))
    .option("--synth-env <name>", "a variable of the watcher's environment to pass to the repository's app (repeat for several); it gets only PATH, HOME, locale, proxy, Node and npm settings otherwise", (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option("--listen <host:port>", "address of the status page /, /metrics, /healthz, /readyz and /status (port 0 picks a free one); another than loopback serves the stacks' status to the network", "127.0.0.1:9464")
    .addOption(new Option("--log-format <format>", "one line per round and stack, as text or JSON").choices(["text", "json"]).default("text"))
    .option("--plan-dir <dir>", "where --on-change plan saves plans (and the configuration they were made from)", ".ods/plans")
    .option("--workdir <dir>", "the private checkout of the branch (default: a temporary directory removed at exit)")
    .option("--lock-timeout <duration>", "how long a round waits for a state lock another run holds", "5m")
    .option("--max-backoff <duration>", "the longest wait after failed rounds", "10m")
    .option("--rate-budget <share>", "share of the organization's API rate limit the watcher may use", "50%")
    .option("--parallelism <n>", "concurrent calls", parseParallelism, 10)
    .option("--annotate", "annotate each dataset touched by an applied revision or by new drift (type config-change)")
    .option("--once", "run one round and exit: 0 converged, 2 drift or a pending plan remains, 1 a stack failed")
    .option("--warnings-as-errors", "a plan or apply with any warning fails the round (its stack is not applied, or the round is failed after)")
    .action(async (o: WatchOpts) => {
      const { runWatch } = await import("./watch-run");
      setExit(await runWatch(o));
    });
}

