// The demo's monitor loop: server errors are ingested, the emulator's manual clock moves
// so that the example's threshold monitor runs, and the alert that reached the demo's
// receiver is printed; five minutes later, without errors, the alert closes.
import type { OdsClient } from "../api";
import type { EmulatorHandle } from "../emulator";
import type { AlertReceiver, ReceivedAlert } from "./alert-receiver";

/** The example monitor's interval: runs fall on multiples of it. */
const RUN_EVERY_MS = 5 * 60_000;
const SERVER_ERRORS = 6;

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

function show(alerts: ReceivedAlert[], log: (s: string) => void): void {
  if (alerts.length === 0) {
    log("  (nothing arrived: the stack declares no monitor whose notifier posts to the receiver)");
    return;
  }
  for (const a of alerts) {
    let body = a.body;
    try {
      body = JSON.stringify(JSON.parse(a.body), null, 2);
    } catch {
      // not JSON: shown as it came
    }
    log(`  POST ${a.path}  (X-Team: ${String(a.headers["x-team"] ?? "-")})`);
    log(body.split("\n").map((l) => `  ${l}`).join("\n"));
  }
}

export async function showMonitorAlert(
  emulator: EmulatorHandle,
  client: OdsClient,
  receiver: AlertReceiver,
  dataset: string,
  log: (s: string) => void,
): Promise<void> {
  // Start just after a run time, so that the next run's range holds the events below;
  // the runs due on the way (an alert left open by an earlier demo) happen first.
  const boundary = Math.floor(emulator.now() / RUN_EVERY_MS) * RUN_EVERY_MS + RUN_EVERY_MS;
  await emulator.moveClock({ set: iso(boundary + 30_000) });
  receiver.received.length = 0;

  const events = Array.from({ length: SERVER_ERRORS }, (_, i) => ({
    _time: iso(boundary + (i + 1) * 1000),
    method: "POST",
    path: "/checkout",
    status: 503,
    duration_ms: 3000,
  }));
  await client.ingest(dataset, events);
  log(`Ingested ${SERVER_ERRORS} server errors on /checkout into "${dataset}" at ${iso(boundary + 1000)}.`);
  log("Moving the emulator's clock 5 minutes: the monitor runs.");
  await emulator.moveClock({ advance: "5m" });
  log(`The alert receiver at ${receiver.url} got:`);
  show(receiver.received, log);

  receiver.received.length = 0;
  log("Another 5 minutes without errors:");
  await emulator.moveClock({ advance: "5m" });
  show(receiver.received, log);
}
