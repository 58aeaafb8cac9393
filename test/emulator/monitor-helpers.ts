// For the monitor tests: a webhook receiver on 127.0.0.1 that records what it gets, and
// small builders for the emulator side (a dataset, events at given times, notifiers).
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { EmulatorOptions } from "../../src/emulator";
import { startTestEmulator, type TestEmulator } from "./helpers";

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status codes to answer, in order; 200 once they run out. */
  answers: number[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(answers.shift() ?? 200);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Events at `at` (ISO, or ms) with the given fields; ingested into `dataset`. */
export async function ingestAt(t: TestEmulator, dataset: string, events: { at: string | number; [field: string]: unknown }[]): Promise<void> {
  const body = events.map(({ at, ...rest }) => ({ _time: typeof at === "number" ? new Date(at).toISOString() : at, ...rest }));
  const reply = await t.ok("POST", `/v1/datasets/${dataset}/ingest`, body);
  if (reply.ingested !== events.length) throw new Error(`ingest: ${JSON.stringify(reply)}`);
}

export async function webhookNotifier(t: TestEmulator, url: string, extra: Record<string, unknown> = {}): Promise<string> {
  return (await t.ok("POST", "/v2/notifiers", { name: "hook", properties: { webhook: { url } }, ...extra })).id as string;
}

export async function customWebhookNotifier(t: TestEmulator, url: string, body: string, more: Record<string, unknown> = {}): Promise<string> {
  return (await t.ok("POST", "/v2/notifiers", { name: "custom", properties: { customWebhook: { url, body, ...more } } })).id as string;
}

export async function history(t: TestEmulator, monitorId: string): Promise<{ state: string; timestamp: string; checkId: string; name: string }[]> {
  return t.ok("GET", `/v2/monitors/${monitorId}/history?startTime=2000-01-01T00:00:00Z&endTime=2100-01-01T00:00:00Z`);
}

export const T0 = Date.parse("2026-01-01T00:00:00Z");
export const min = (n: number): number => T0 + n * 60_000;

export interface MonitorEnv {
  /** A fresh emulator per test, manual clock at T0, with a dataset "logs". */
  t: TestEmulator;
  /** One receiver for the file, emptied before each test. */
  rx: Receiver;
}

/** Registers the hooks every monitor test file needs; the fields are set once the hooks ran. */
export function monitorEnv(opts: Partial<EmulatorOptions> = {}): MonitorEnv {
  const env = {} as MonitorEnv;
  beforeAll(async () => {
    env.rx = await startReceiver();
  });
  afterAll(() => env.rx.close());
  beforeEach(async () => {
    env.t = await startTestEmulator({ clock: "manual", clockStart: "2026-01-01T00:00:00Z", ...opts });
    await env.t.ok("POST", "/v2/datasets", { name: "logs" });
    env.rx.received.length = 0;
    env.rx.answers.length = 0;
  });
  afterEach(() => env.t.close());
  return env;
}

/** A Threshold monitor's body over `logs` (5xx per minute above 10), with `extra` fields. */
export const thresholdMonitor = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: "errors",
  type: "Threshold",
  aplQuery: "['logs'] | where status >= 500 | summarize count() by bin(_time, 1m)",
  operator: "Above",
  threshold: 10,
  intervalMinutes: 5,
  rangeMinutes: 5,
  ...extra,
});
