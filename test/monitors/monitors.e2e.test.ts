// Monitors as code, end to end, for both engines: a stack with a threshold monitor, a
// match monitor and two notifiers is applied (by `ods apply`, then by real `terraform
// apply`) to an emulator on a manual clock; events cross the threshold; moving the clock
// runs the monitors, and a webhook receiver on 127.0.0.1 gets the rendered custom-webhook
// body (action, monitor name, value, group values), the history shows open then closed,
// and the match monitor sends one notification per matching event up to its cap. Bad
// input is refused naming the attribute, with nothing applied.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import type { EmulatorHandle } from "../../src/emulator";
import { removeTempDirs } from "../helpers/ods-cli";
import { hasTerraform, installProvider } from "../terraform/harness";
import { startReceiver, type Receiver } from "../emulator/monitor-helpers";
import { freshEmulator, odsEngine, stackOf, startedEmulators, terraformEngine, type Engine, type Stack } from "./engines";

const T0 = Date.parse("2026-03-02T10:00:00Z");
const at = (minutes: number, seconds = 0): string => new Date(T0 + minutes * 60_000 + seconds * 1000).toISOString();

let cliConfig: string;
let rx: Receiver;

beforeAll(async () => {
  rx = await startReceiver();
  if (hasTerraform) cliConfig = installProvider();
});
afterAll(async () => {
  await rx.close();
  for (const e of startedEmulators) await e.close();
  removeTempDirs();
});

/** The custom webhook's body: Go template syntax, the documented variables and helpers. */
const TEMPLATE = [
  "{",
  '"action": "{{ .Action }}",',
  '"state": "{{ if eq .Action "Open" }}firing{{ else }}resolved{{ end }}",',
  '"monitor": {{ jsonObject .Title }},',
  '"value": {{ .Value }},',
  '"keys": {{ jsonArray .GroupKeys }},',
  '"groups": {{ jsonArray .GroupValues }}',
  "}",
].join("\n");

function monitorStack(receiver: string, overrides: { errors?: Record<string, unknown>; panics?: Record<string, unknown> } = {}): Stack {
  return stackOf({
    ods_dataset: { shop: { name: "e2e-shop" } },
    ods_notifier: {
      pager: {
        name: "e2e-pager",
        properties: { custom_webhook: { url: `${receiver}/pager`, body: TEMPLATE, headers: { "X-Team": "checkout" } } },
      },
      panics: { name: "e2e-panic-hook", properties: { webhook: { url: `${receiver}/panics` } } },
    },
    ods_monitor: {
      errors: {
        name: "Checkout 5xx",
        type: "Threshold",
        description: "Too many failed checkouts on one host",
        apl_query: "['e2e-shop'] | where status >= 500 | summarize count() by bin(_time, 1m), host",
        operator: "Above",
        threshold: 3,
        interval_minutes: 5,
        range_minutes: 5,
        resolvable: true,
        notifier_ids: ["${ods_notifier.pager.id}"],
        depends_on: ["ods_dataset.shop"],
        ...overrides.errors,
      },
      panics: {
        name: "Checkout panics",
        type: "MatchEvent",
        apl_query: "['e2e-shop'] | where message contains 'panic' | project-keep _time, host, message",
        interval_minutes: 1,
        range_minutes: 1,
        notifier_ids: ["${ods_notifier.panics.id}"],
        depends_on: ["ods_dataset.shop"],
        ...overrides.panics,
      },
    },
  });
}

async function ingest(e: EmulatorHandle, events: Record<string, unknown>[]): Promise<void> {
  const c = new OdsClient({ url: e.url, token: e.adminToken });
  try {
    const r = await c.ingest("e2e-shop", events);
    expect(r.ingested).toBe(events.length);
  } finally {
    await c.close();
  }
}

async function historyOf(e: EmulatorHandle, name: string): Promise<string[]> {
  const c = new OdsClient({ url: e.url, token: e.adminToken });
  try {
    const m = (await c.listMonitors()).find((x) => x.name === name);
    expect(m, `monitor "${name}"`).toBeDefined();
    const h = await c.getMonitorHistory(m!.id, { startTime: "2026-01-01T00:00:00Z", endTime: "2027-01-01T00:00:00Z" });
    return h.map((x) => `${x.state} ${x.timestamp}`);
  } finally {
    await c.close();
  }
}

const receivedAt = (path: string): { body: Record<string, unknown>; headers: Record<string, unknown> }[] =>
  rx.received.filter((r) => r.path === path).map((r) => ({ body: JSON.parse(r.body) as Record<string, unknown>, headers: r.headers }));

/** The whole loop for one engine, on its own emulator; answers the first alert body (for the docs). */
async function alertLoop(engine: (e: EmulatorHandle) => Engine): Promise<void> {
  const e = await freshEmulator({ clock: "manual", clockStart: at(0) });
  const eng = engine(e);
  rx.received.length = 0;
  const stack = monitorStack(rx.url);
  const applied = await eng.apply(stack);
  expect(applied.code, applied.out).toBe(0);
  const again = await eng.plan(stack);
  expect(again.code, `${eng.name} plans clean after apply:\n${again.out}`).toBe(0);

  // Minute 1: five 5xx on web-1 (crosses 3), one on web-2; 12 panics within one minute.
  await ingest(e, [
    ...[1, 2, 3, 4, 5].map((s) => ({ _time: at(1, s), status: 503, host: "web-1", message: "upstream timeout" })),
    { _time: at(1, 30), status: 500, host: "web-2", message: "bad gateway" },
    ...Array.from({ length: 12 }, (_, i) => ({ _time: at(2, i * 2), status: 200, host: "web-3", message: `panic: nil map ${i}` })),
  ]);
  await e.moveClock({ advance: "5m" });

  const pager = receivedAt("/pager");
  expect(pager).toHaveLength(1);
  expect(pager[0].headers["x-team"]).toBe("checkout");
  expect(pager[0].headers["content-type"]).toBe("application/json");
  expect(pager[0].body).toEqual({ action: "Open", state: "firing", monitor: "Checkout 5xx", value: 5, keys: ["host"], groups: ["web-1"] });
  expect(await historyOf(e, "Checkout 5xx")).toEqual([`open ${at(5).replace(".000", "")}`]);

  // One notification per matching event, at most 10 a minute: the first 10 of 12.
  const panics = receivedAt("/panics");
  expect(panics).toHaveLength(10);
  const messages = panics.map((p) => JSON.stringify(p.body).match(/panic: nil map (\d+)/)?.[1]);
  expect(messages).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);

  // The values drop: one 5xx in the next window. The alert closes, and says so.
  await ingest(e, [{ _time: at(7), status: 500, host: "web-1", message: "once" }]);
  await e.moveClock({ advance: "5m" });
  const closed = receivedAt("/pager");
  expect(closed).toHaveLength(2);
  expect(closed[1].body).toMatchObject({ action: "Closed", state: "resolved", monitor: "Checkout 5xx", value: 1 });
  expect(await historyOf(e, "Checkout 5xx")).toEqual([`open ${at(5).replace(".000", "")}`, `closed ${at(10).replace(".000", "")}`]);
  console.log(`${eng.name}: the custom webhook received\n${rx.received.find((r) => r.path === "/pager")?.body}`);
}

/** Bad monitors: refused naming the attribute; neither the monitor nor anything else of the stack is created. */
/** The attribute, then the words of the message; Terraform wraps lines anywhere between words. */
function mentions(attribute: string, message: string): RegExp {
  const words = message.split(" ").map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`${attribute}[\\s\\S]*${words.join("\\s+")}`);
}

const BAD: [string, (receiver: string) => Stack, RegExp][] = [
  ["an unknown operator", (r) => monitorStack(r, { errors: { operator: "GreaterThan" } }), mentions("operator", 'got "GreaterThan"')],
  ["a zero interval", (r) => monitorStack(r, { errors: { interval_minutes: 0 } }), mentions("interval_minutes", "expected a number >= 1, got 0")],
  ["a match monitor with summarize", (r) => monitorStack(r, { panics: { apl_query: "['e2e-shop'] | where status >= 500 | summarize count()" } }), mentions("apl_query", '"summarize" is not allowed')],
  ["a notifier id that does not exist", (r) => monitorStack(r, { errors: { notifier_ids: ["ntf_does_not_exist"] } }), mentions("notifier_ids", 'no notifier has the id "ntf_does_not_exist"')],
];

async function refusesBadInput(engine: (e: EmulatorHandle) => Engine): Promise<void> {
  for (const [what, stack, message] of BAD) {
    const e = await freshEmulator({ clock: "manual", clockStart: at(0) });
    const r = await engine(e).apply(stack(rx.url));
    expect(r.code, `${what}: ${r.out}`).not.toBe(0);
    expect(r.out, what).toMatch(message);
    const c = new OdsClient({ url: e.url, token: e.adminToken });
    try {
      expect([await c.listMonitors(), await c.listNotifiers()], `${what}: nothing applied`).toEqual([[], []]);
      expect((await c.listDatasets()).map((d) => d.name), what).not.toContain("e2e-shop");
    } finally {
      await c.close();
    }
  }
}

describe("monitors end to end through ods", () => {
  it("alert through the custom webhook, record open then closed, and send each match up to the cap", async () => {
    await alertLoop(odsEngine);
  });
  it("refuse bad input naming the attribute, with nothing applied", async () => {
    await refusesBadInput(odsEngine);
  });
});

describe.skipIf(!hasTerraform)("monitors end to end through terraform", () => {
  it("alert through the custom webhook, record open then closed, and send each match up to the cap", async () => {
    await alertLoop((e) => terraformEngine(e, cliConfig));
  }, 180_000);
  it("refuse bad input naming the attribute, with nothing applied", async () => {
    await refusesBadInput((e) => terraformEngine(e, cliConfig));
  }, 240_000);
});
