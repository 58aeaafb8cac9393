// startEmulator from code (issue 56, item 2): several handles in one process, ingest then
// query, a manual clock that fires a monitor whose alert reaches deliveries(), tokens with
// exactly their capabilities, and options refused by name. Everything over real HTTP on
// 127.0.0.1, as a user's test suite would use it.
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, EmulatorOptionError, type EmulatorInstance, type StartEmulatorOptions } from "../../src/automation";

async function call(url: string, token: string, method: string, route: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text === "" ? undefined : (JSON.parse(text) as unknown) };
}

async function ok<T>(em: EmulatorInstance, method: string, route: string, body?: unknown): Promise<T> {
  const res = await call(em.url, em.token, method, route, body);
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json as T;
}

/** Whether something accepts connections on 127.0.0.1:PORT. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const portOf = (url: string): number => Number(new URL(url).port);

/** Servers and sockets this process holds (what would keep a test run open). */
function netResources(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "TCPServerWrap" || r === "TCPSocketWrap").length;
}

/** The count of netResources() once closing sockets have finished closing (bounded: 2 s). */
async function settledNetResources(atMost: number): Promise<number> {
  for (let i = 0; i < 40 && netResources() > atMost; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return netResources();
}

describe("startEmulator: handles", () => {
  it("starts several at once on free ports, and stop() frees the ports, removes their temporary directories and leaves nothing open", async () => {
    const before = netResources();
    const handles = await Promise.all([startEmulator(), startEmulator(), startEmulator({ clock: "real" })]);
    const ports = handles.flatMap((h) => [portOf(h.url), portOf(h.webhookUrl())]);
    expect(new Set(ports).size).toBe(6);
    for (const h of handles) {
      expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(fs.existsSync(h.dataDir)).toBe(true);
      const orgs = await ok<{ id: string }[]>(h, "GET", "/v2/orgs");
      expect(orgs.map((o) => o.id)).toContain(h.orgId);
    }
    // Separate organizations' data: what one holds, the others do not.
    await handles[0]!.ingest("only-here", [{ n: 1 }]);
    expect((await call(handles[1]!.url, handles[1]!.token, "GET", "/v2/datasets/only-here")).status).toBe(404);

    await Promise.all(handles.map((h) => h.stop()));
    await handles[0]!.stop(); // a second stop is harmless
    for (const port of ports) expect(await listening(port)).toBe(false);
    for (const h of handles) expect(fs.existsSync(h.dataDir)).toBe(false);
    expect(await settledNetResources(before)).toBeLessThanOrEqual(before);
  });

  it("keeps a data directory it was given, and a later start from it finds the data again", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-automation-kept-"));
    try {
      const first = await startEmulator({ dataDir: dir });
      await first.ingest("kept", [{ n: 1 }, { n: 2 }]);
      const token = first.token;
      await first.stop();
      expect(fs.existsSync(dir)).toBe(true);

      const second = await startEmulator({ dataDir: dir });
      try {
        expect(second.token).toBe(token);
        const rows = await ok<{ tables: { columns: unknown[][] }[] }>(second, "POST", "/v1/datasets/_apl?format=tabular", { apl: "['kept'] | count", startTime: "2000-01-01T00:00:00Z", endTime: "2100-01-01T00:00:00Z" });
        expect(rows.tables[0]!.columns[0]).toEqual([2]);
      } finally {
        await second.stop();
      }
      expect(fs.existsSync(dir)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never shows its token when printed or logged", async () => {
    const em = await startEmulator();
    try {
      expect(inspect(em)).not.toContain(em.token);
      expect(JSON.stringify(em)).not.toContain(em.token);
      expect(JSON.stringify(em)).toContain(em.url);
    } finally {
      await em.stop();
    }
  });
});

describe("startEmulator: ingest, clock, deliveries, tokens", () => {
  let em: EmulatorInstance;
  beforeAll(async () => {
    em = await startEmulator({ clockStart: "2026-03-01T10:00:00Z" });
  });
  afterAll(() => em.stop());

  it("ingests into a dataset it creates when missing, and a query reads the events back", async () => {
    expect((await call(em.url, em.token, "GET", "/v2/datasets/checkout")).status).toBe(404);
    const result = await em.ingest("checkout", [{ status: 200 }, { status: 500 }, { status: 503 }]);
    expect(result).toMatchObject({ ingested: 3, failed: 0 });
    await em.ingest("checkout", [{ status: 502 }]);
    const answer = await ok<{ tables: { columns: unknown[][] }[] }>(em, "POST", "/v1/datasets/_apl?format=tabular", {
      apl: "['checkout'] | where status >= 500 | count",
      startTime: "2026-03-01T00:00:00Z",
      endTime: "2026-03-02T00:00:00Z",
    });
    expect(answer.tables[0]!.columns[0]).toEqual([3]);
  });

  it("advance() moves the manual clock and resolves once the monitor's alert has reached deliveries(), with its body", async () => {
    expect(em.now().toISOString()).toBe("2026-03-01T10:00:00.000Z");
    const hook = await ok<{ id: string }>(em, "POST", "/v2/notifiers", { name: "oncall", properties: { webhook: { url: em.webhookUrl("oncall") } } });
    const custom = await ok<{ id: string }>(em, "POST", "/v2/notifiers", {
      name: "ticketing",
      properties: { customWebhook: { url: em.webhookUrl("ticketing"), body: '{"what": "{{.Title}}", "value": {{.Value}}}', headers: { "X-Team": "payments" }, secretHeaders: { "X-Api-Key": "s3cret-key-value" } } },
    });
    await em.ingest("payments", [{ status: 500 }, { status: 500 }, { status: 502 }, { status: 200 }]);
    const monitor = await ok<{ id: string }>(em, "POST", "/v2/monitors", {
      name: "payment errors",
      type: "Threshold",
      aplQuery: "['payments'] | where status >= 500 | count",
      operator: "Above",
      threshold: 2,
      intervalMinutes: 5,
      rangeMinutes: 5,
      notifierIds: [hook.id, custom.id],
    });
    expect(await em.deliveries()).toEqual([]);

    const now = await em.advance("5m");
    expect(now.toISOString()).toBe("2026-03-01T10:05:00.000Z");
    expect(em.now().toISOString()).toBe("2026-03-01T10:05:00.000Z");
    const got = await em.deliveries();
    expect(got.map((d) => d.name).sort()).toEqual(["oncall", "ticketing"]);

    const plain = got.find((d) => d.name === "oncall")!;
    expect(plain).toMatchObject({ method: "POST", path: "/webhooks/oncall" });
    expect(plain.headers["content-type"]).toBe("application/json");
    expect(plain.body).toMatchObject({ action: "Open", event: { monitorId: monitor.id, title: "payment errors", value: 3 } });

    const rendered = got.find((d) => d.name === "ticketing")!;
    expect(rendered.body).toEqual({ what: "payment errors", value: 3 });
    expect(rendered.headers["x-team"]).toBe("payments");
    expect(rendered.headers["x-api-key"]).toBe("(sensitive)");
    expect(JSON.stringify(got)).not.toContain("s3cret-key-value");
    const revealed = await em.deliveries({ revealSecrets: true });
    expect(revealed.find((d) => d.name === "ticketing")!.headers["x-api-key"]).toBe("s3cret-key-value");

    // Still crossing, already open: no new alert on the next run.
    em.clearDeliveries();
    await em.advance(5 * 60_000);
    expect(await em.deliveries()).toEqual([]);
  });

  it("refuses a duration it cannot read, naming it", async () => {
    await expect(em.advance("soon")).rejects.toThrow(/advance\("soon"\).*"advance" must be a duration such as "90s"/);
    await expect(em.advance(-1)).rejects.toThrow(/advance\(-1\).*>= 0/);
  });

  it("createToken makes a token with exactly the capabilities asked for", async () => {
    await em.ingest("orders", [{ status: 200 }]);
    const ingestOnly = await em.createToken({ datasetCapabilities: { orders: { ingest: ["create"] } } });
    expect(ingestOnly.name).toMatch(/^test-token-\d+$/);
    expect(ingestOnly.token).not.toBe(em.token);

    expect((await call(em.url, ingestOnly.token, "POST", "/v1/datasets/orders/ingest", [{ status: 500 }])).status).toBe(200);
    const query = await call(em.url, ingestOnly.token, "POST", "/v1/datasets/_apl?format=tabular", { apl: "['orders'] | count", startTime: "2026-03-01T00:00:00Z", endTime: "2026-03-02T00:00:00Z" });
    expect(query.status).toBe(403);
    expect((query.json as { message: string }).message).toContain('datasetCapabilities["orders"].query|read');
    expect((await call(em.url, ingestOnly.token, "POST", "/v1/datasets/payments/ingest", [{ status: 500 }])).status).toBe(403);
    expect((await call(em.url, ingestOnly.token, "GET", "/v2/monitors")).status).toBe(403);

    const reader = await em.createToken({ orgCapabilities: { monitors: ["read"] } }, { name: "monitor-reader" });
    expect(reader.name).toBe("monitor-reader");
    expect((await call(em.url, reader.token, "GET", "/v2/monitors")).status).toBe(200);
    expect((await call(em.url, reader.token, "POST", "/v2/notifiers", { name: "x", properties: { webhook: { url: em.webhookUrl() } } })).status).toBe(403);
  });
});

describe("startEmulator: options", () => {
  const refused: [string, unknown, RegExp][] = [
    ["port", { port: 70000 }, /option "port" must be a whole number from 0 to 65535.*70000/],
    ["port", { port: "8080" }, /option "port" must be a whole number/],
    ["clock", { clock: "fake" }, /option "clock" must be "real" or "manual", got "fake"/],
    ["clockStart", { clockStart: "yesterday" }, /option "clockStart" must be an RFC 3339 timestamp.*"yesterday"/],
    ["clockStart", { clock: "real", clockStart: "2026-01-01T00:00:00Z" }, /option "clockStart" needs clock: "manual"/],
    ["license", { license: "maxMonitor=3" }, /option "license" unknown limit "maxMonitor"/],
    ["license", { license: { maxMonitors: 2.5 } }, /option "license" maxMonitors must be a whole number/],
    ["faults", { faults: "error5xx=2" }, /option "faults" invalid fault spec/],
    ["faults", { faults: { error5xx: 7 } }, /option "faults" invalid fault spec/],
    ["dataDir", { dataDir: "" }, /option "dataDir" must be a directory path/],
    ["clok", { clok: "manual" }, /option "clok" is not an option; the options are dataDir, port, clock/],
  ];
  it.each(refused)("refuses a bad %s, naming it", async (option, options, message) => {
    const err = await startEmulator(options as StartEmulatorOptions).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EmulatorOptionError);
    expect((err as EmulatorOptionError).option).toBe(option);
    expect((err as Error).message).toMatch(message);
  });

  it("refuses a port or a data directory another emulator holds, naming the option, and the running one carries on", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-automation-held-"));
    const first = await startEmulator({ dataDir: dir });
    try {
      const port = portOf(first.url);
      await expect(startEmulator({ port })).rejects.toMatchObject({ option: "port", message: expect.stringContaining(`${port} is taken`) });
      await expect(startEmulator({ dataDir: dir })).rejects.toMatchObject({ option: "dataDir", message: expect.stringMatching(/is in use by another emulator \(pid \d+\): stop it, or pass another dataDir/) });
      expect((await call(first.url, first.token, "GET", "/v2/orgs")).status).toBe(200);
    } finally {
      await first.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("applies the license and faults it is given", async () => {
    const em = await startEmulator({ license: { maxDatasets: 1 }, faults: "latency=1ms" });
    try {
      await em.ingest("first", [{ n: 1 }]);
      await expect(em.ingest("second", [{ n: 1 }])).rejects.toThrow(/403.*maxDatasets/);
    } finally {
      await em.stop();
    }
  });

  it("advance() on a real clock says how to get a manual one", async () => {
    const em = await startEmulator({ clock: "real" });
    try {
      await expect(em.advance("1m")).rejects.toThrow(/start the emulator with startEmulator\(\{ clock: "manual" \}\)/);
    } finally {
      await em.stop();
    }
  });
});
