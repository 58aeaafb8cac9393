// End to end: a real emulator on 127.0.0.1, a dataset created and filled over HTTP,
// both query endpoints answered over HTTP with the admin token.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";

interface Reply {
  status: number;
  // Answers of any shape; the assertions below read them field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

let em: EmulatorHandle;
let dir: string;

async function post(urlPath: string, body: unknown): Promise<Reply> {
  const res = await fetch(em.url + urlPath, {
    method: "POST",
    headers: { Authorization: `Bearer ${em.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text) };
}

const RANGE = { startTime: "2024-03-01T00:00:00Z", endTime: "2024-03-01T01:00:00Z" };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-query-e2e-"));
  em = await startEmulator({ port: 0, dataDir: dir });
  expect((await post("/v2/datasets", { name: "shop-events" })).status).toBeLessThan(300);
  const ingest = await post("/v1/datasets/shop-events/ingest", [
    { _time: "2024-03-01T00:10:00Z", kind: "order", amount: 30, customer: { id: "c1" } },
    { _time: "2024-03-01T00:20:00Z", kind: "order", amount: 12.5, customer: { id: "c2" } },
    { _time: "2024-03-01T00:25:00Z", kind: "refund", amount: 30, customer: { id: "c1" } },
    { _time: "2024-03-01T00:40:00Z", kind: "order", amount: 7, customer: { id: "c1" } },
  ]);
  expect(ingest.status).toBe(200);
  const vf = await post("/v2/vfields", { dataset: "shop-events", name: "big", expression: "amount >= 20", type: "boolean", unit: "", description: "" });
  expect(vf.status).toBeLessThan(300);
});

afterAll(async () => {
  await em?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("POST /v1/datasets/_apl", () => {
  it("tabular: a time-series summary with a flattened field and a virtual field", async () => {
    const apl = "['shop-events'] | where kind == 'order' | summarize n = count(), total = sum(amount) by bin(_time, 15m), big";
    const r = await post("/v1/datasets/_apl?format=tabular", { apl, ...RANGE });
    expect(r.status).toBe(200);
    expect(r.body.format).toBe("tabular");
    expect(r.body.datasetNames).toEqual(["shop-events"]);
    const t = r.body.tables[0];
    expect(t.fields.map((f: { name: string }) => f.name)).toEqual(["_time", "big", "n", "total"]);
    expect(t.columns).toEqual([
      ["2024-03-01T00:00:00Z", "2024-03-01T00:15:00Z", "2024-03-01T00:30:00Z"],
      [true, false, false],
      [1, 1, 1],
      [30, 12.5, 7],
    ]);
    expect(t.buckets).toEqual({ field: "_time", size: 900_000_000_000 });
    expect(r.body.tables[1].name).toBe("_totals");
    expect(r.body.status).toMatchObject({ rowsExamined: 4, rowsMatched: 3, isPartial: false });
  });

  it("legacy: matches with flattened fields", async () => {
    const r = await post("/v1/datasets/_apl?format=legacy", { apl: "['shop-events'] | where ['customer.id'] == 'c1' | project kind, amount", ...RANGE });
    expect(r.status).toBe(200);
    expect(r.body.matches.map((m: { _time: string; data: unknown }) => [m._time, m.data])).toEqual([
      ["2024-03-01T00:40:00Z", { kind: "order", amount: 7 }],
      ["2024-03-01T00:25:00Z", { kind: "refund", amount: 30 }],
      ["2024-03-01T00:10:00Z", { kind: "order", amount: 30 }],
    ]);
    expect(typeof r.body.matches[0]._rowId).toBe("string");
  });

  it("finds events just ingested with the default _time when the request names no times", async () => {
    expect((await post("/v2/datasets", { name: "fresh" })).status).toBeLessThan(300);
    expect((await post("/v1/datasets/fresh/ingest", [{ msg: "hello" }, { msg: "world" }])).status).toBe(200);
    const r = await post("/v1/datasets/_apl?format=tabular", { apl: "fresh | sort by msg asc | project msg" });
    expect(r.status).toBe(200);
    expect(r.body.tables[0].columns).toEqual([["hello", "world"]]);
  });

  it("a bad query answers 400 with the position of the problem", async () => {
    const r = await post("/v1/datasets/_apl?format=tabular", { apl: "['shop-events']\n| where nosuch == 1", ...RANGE });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(400);
    expect(r.body.detail).toMatchObject({ line: 2, column: 9, compileErrorCode: "apl_unknownfield" });
  });

  it("documentation-style queries: let, a datatable joined to the dataset, a nested JSON property, make_list", async () => {
    const apl = [
      "let tiers = datatable(id: string, tier: string) ['c1', 'gold', 'c2', 'basic'];",
      "['shop-events'] | where kind in (dynamic(['order']))",
      "| join kind=leftouter tiers on $left.['customer.id'] == $right.id",
      "| summarize orders = count(), amounts = make_list(amount), avg_amount = round(avg(amount), 1) by tier",
      "| sort by tier asc",
    ].join("\n");
    const r = await post("/v1/datasets/_apl?format=tabular", { apl, ...RANGE });
    expect(r.status).toBe(200);
    const t = r.body.tables[0];
    expect(t.fields.map((f: { name: string }) => f.name)).toEqual(["tier", "orders", "amounts", "avg_amount"]);
    expect(t.columns).toEqual([
      ["basic", "gold"],
      [1, 2],
      [[12.5], [7, 30]],
      [12.5, 18.5],
    ]);
    const bad = await post("/v1/datasets/_apl", { apl: "['shop-events']\n| mv-apply x = amount on (take 1)", ...RANGE });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatchObject({ line: 2, column: 3, compileErrorCode: "apl_unknownoperator" });
  });

  it("an unknown dataset answers 404", async () => {
    const r = await post("/v1/datasets/_apl?format=legacy", { apl: "['no-such'] | count", ...RANGE });
    expect(r.status).toBe(404);
    expect(r.body.detail).toMatchObject({ line: 1, column: 1, compileErrorCode: "apl_unknowndataset" });
  });
});

describe("POST /v1/datasets/{name}/query", () => {
  it("aggregates with groupBy and resolution", async () => {
    const r = await post("/v1/datasets/shop-events/query", {
      ...RANGE,
      aggregations: [{ op: "sum", field: "amount", alias: "revenue" }],
      groupBy: ["kind"],
      resolution: "30m",
    });
    expect(r.status).toBe(200);
    expect(r.body.buckets.totals).toEqual([
      { id: 0, group: { kind: "order" }, aggregations: [{ op: "revenue", value: 49.5 }] },
      { id: 1, group: { kind: "refund" }, aggregations: [{ op: "revenue", value: 30 }] },
    ]);
    expect(r.body.buckets.series.map((s: { startTime: string; groups: unknown[] }) => [s.startTime, s.groups.length])).toEqual([
      ["2024-03-01T00:00:00Z", 2],
      ["2024-03-01T00:30:00Z", 1],
    ]);
  });

  it("filters with the legacy filter tree", async () => {
    const r = await post("/v1/datasets/shop-events/query", { ...RANGE, filter: { op: "==", field: "big", value: true } });
    expect(r.status).toBe(200);
    expect(r.body.matches.map((m: { data: { amount: number } }) => m.data.amount)).toEqual([30, 30]);
  });

  it("an unknown field answers 400 naming it", async () => {
    const r = await post("/v1/datasets/shop-events/query", { ...RANGE, filter: { op: "==", field: "nope", value: 1 } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('unknown field "nope"');
  });
});
