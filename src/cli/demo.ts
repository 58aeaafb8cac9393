// The main job (`npm start`, `ods demo`): a fresh machine with nothing configured gets an
// embedded emulator, the example app synthesized, a plan, an apply, the example's monitor
// run against fresh server errors with the alert its webhook delivered, and a second plan
// that shows nothing is left to change. A second run finds everything in place.
import { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { OdsClient, OdsApiError, resolveClientConfig } from "../api";
import { startEmulator } from "../emulator";
import { applyPlan } from "../reconcile/apply";
import { hasChanges, makePlan } from "../reconcile/plan";
import { renderPlan } from "../reconcile/render";
import { findStackFile, loadStack } from "../reconcile/stack";
import { startAlertReceiver } from "./alert-receiver";
import { showMonitorAlert } from "./demo-monitor";
import { clockStart, demoStateFile, readDemoState, writeDemoState } from "./demo-state";
import { progress, summaryLine } from "./reconcile-commands";
import { synth } from "../reconcile/synth";
import { stateStoreFor } from "./workspace";

/**
 * The app to synthesize: the project's own cdktf.json when there is one (a checkout of
 * this repository points it at examples/basic), else the example the package carries,
 * so `npx ods demo` works in any directory once the package is installed.
 */
function demoApp(cwd: string): string | undefined {
  if (fs.existsSync(path.join(cwd, "cdktf.json"))) return undefined;
  return `node ${JSON.stringify(path.resolve(__dirname, "../../examples/basic/main.js"))}`;
}

/** Sample events for the dataset the example reads (fields must exist to be claimed). */
function sampleEvents(): Record<string, unknown>[] {
  const base = Date.parse("2026-11-01T12:00:00Z");
  const paths = ["/", "/cart", "/checkout", "/api/items"];
  return Array.from({ length: 40 }, (_, i) => ({
    _time: new Date(base + i * 15_000).toISOString(),
    method: i % 5 === 0 ? "POST" : "GET",
    path: paths[i % paths.length],
    status: i % 13 === 0 ? 500 : 200,
    duration_ms: 20 + ((i * 37) % 1400),
    bytes: 512 + i * 64,
  }));
}

async function ensureSampleData(client: OdsClient, name: string, log: (s: string) => void): Promise<void> {
  try {
    await client.getDataset(name);
    return;
  } catch (err) {
    if (!(err instanceof OdsApiError) || err.status !== 404) throw err;
  }
  await client.createDataset({ name, description: "Sample web requests ingested by the demo" });
  await client.ingest(name, sampleEvents());
  log(`Ingested sample events into dataset "${name}".`);
}

export function registerDemoCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command("demo")
    .description("The main job: embedded emulator, synth examples/basic, plan, apply, a monitor alert, plan again.")
    .option("--data-dir <dir>", "emulator data directory", ".ods/emulator")
    .option("--out-dir <dir>", "cdktf output directory", "cdktf.out")
    .action(async (o: { dataDir: string; outDir: string }) => {
      const log = (s: string): void => {
        process.stdout.write(`${s}\n`);
      };
      const stateFile = demoStateFile(o.dataDir);
      const saved = readDemoState(stateFile);
      // The manual clock: the demo moves time so that the monitor runs now, not in 5 minutes.
      const emulator = await startEmulator({ port: 0, dataDir: o.dataDir, clock: "manual", clockStart: clockStart(saved) });
      const receiver = await startAlertReceiver(saved.alertPort);
      writeDemoState(stateFile, { ...saved, alertPort: receiver.port });
      try {
        log(`Emulator running at ${emulator.url} (data in ${path.resolve(o.dataDir)}).`);
        log(`Alert receiver listening at ${receiver.url}.`);
        // The example stack posts its alerts here (examples/basic reads it at synth time).
        process.env.ODS_DEMO_ALERT_URL ??= receiver.url;
        const client = new OdsClient(resolveClientConfig({ url: emulator.url, token: emulator.adminToken }, {}));
        await ensureSampleData(client, "web-requests", log);

        log("\n== Synthesizing examples/basic ==");
        await synth({ out: o.outDir, app: demoApp(process.cwd()) });
        const stackFile = findStackFile(o.outDir);
        const stack = loadStack(stackFile);
        const store = stateStoreFor(stackFile, stack.name, o.outDir, undefined, log);

        await store.lock("ods demo");
        try {
          log("\n== Plan ==");
          const plan = await makePlan({ client, stack, state: await store.read() });
          log(renderPlan(plan));
          log("== Apply ==");
          const summary = await applyPlan({
            client, stack, state: await store.read(), persist: (s) => store.write(s), plan,
            onEvent: progress,
          });
          for (const w of summary.warnings) log(`Warning: ${w}`);
          log(summaryLine(summary));
          if (summary.failed === 0) {
            log("\n== Monitor ==");
            await showMonitorAlert(emulator, client, receiver, "web-requests", log);
          }
          log("\n== Plan again ==");
          const again = await makePlan({ client, stack, state: await store.read() });
          log(renderPlan(again));
          if (summary.failed > 0 || hasChanges(again)) setExit(1);
        } finally {
          await store.close();
        }
        log(
          [
            `State: ${store.description}`,
            "",
            "Point the same commands at a real service:",
            "  export ODS_URL=https://your-ods-host  ODS_TOKEN=<an API token>",
            "  npx ods plan      # review",
            "  npx ods apply     # apply",
            "Or keep an emulator running: npx ods emulator --data-dir .ods/emulator",
          ].join("\n"),
        );
      } finally {
        writeDemoState(stateFile, { alertPort: receiver.port, clock: new Date(emulator.now()).toISOString() });
        await emulator.close();
        await receiver.close();
      }
    });
}
