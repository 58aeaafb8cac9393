// Fixed events the backtest tests and the agreement test share: hand-checked windows of
// errors per service, a heartbeat with a gap, and traffic that doubles from one day to the next.
export const at = (hhmm: string, day = "2026-01-01"): string => `${day}T${hhmm}:00Z`;
export const iso = (hhmm: string, day = "2026-01-01"): string => new Date(at(hhmm, day)).toISOString();

/** `count` events at `time` (one a second) with the given fields. */
function events(count: number, time: string, fields: Record<string, unknown>): Record<string, unknown>[] {
  const base = Date.parse(time);
  return Array.from({ length: count }, (_, i) => ({ _time: new Date(base + i * 1000).toISOString(), ...fields }));
}

function everyMinute(count: number, from: string, stepMs = 60_000): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({ _time: new Date(Date.parse(from) + i * stepMs).toISOString(), v: 1 }));
}

export const DATASETS: Record<string, Record<string, unknown>[]> = {
  web: [
    // api: 3 errors in each of the windows [10:00,10:05), [10:05,10:10), [10:10,10:15).
    ...events(3, at("10:01"), { status: 500, service: "api", ms: 100 }),
    ...events(3, at("10:06"), { status: 500, service: "api", ms: 100 }),
    ...events(3, at("10:11"), { status: 500, service: "api", ms: 100 }),
    // shop: 5 errors in [12:00,12:05) only.
    ...events(5, at("12:02"), { status: 502, service: "shop", ms: 900 }),
    // ok traffic at 10:01 that never counts.
    ...events(4, at("10:01"), { status: 200, service: "api", ms: 10 }),
  ],
  // One heartbeat a minute from 08:00 to 08:59, then silence until 09:30, then again until 09:59.
  beats: [...everyMinute(60, at("08:00")), ...everyMinute(30, at("09:30"))],
  // One request a minute 08:00-08:59 on Jan 1; two a minute at the same time on Jan 2.
  traffic: [...everyMinute(60, at("08:00")), ...everyMinute(120, at("08:00", "2026-01-02"), 30_000)],
};

/** Creates the fixture datasets and ingests their events through the emulator's HTTP API. */
export async function ingestFixtures(ok: (method: string, path: string, body?: unknown) => Promise<unknown>): Promise<void> {
  for (const [name, rows] of Object.entries(DATASETS)) {
    await ok("POST", "/v2/datasets", { name });
    await ok("POST", `/v1/datasets/${name}/ingest`, rows);
  }
}
