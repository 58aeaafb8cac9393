// A monitor reads only what its creator may read: writing a monitor, a view or a starred
// query needs query|read on every dataset its query names, checked before anything looks
// at data, so that neither the 500-matches refusal nor a compile error tells a caller
// anything about a dataset it may not read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, tokenWith, type TestEmulator } from "./helpers";

const SECRET = "cards";
const OPEN = "public-logs";
const REFUSAL = `token lacks capability datasetCapabilities[${JSON.stringify(SECRET)}].query|read`;
const CRUD = ["create", "read", "update", "delete"];

let t: TestEmulator;
/** monitors, views and starred queries on every dataset, query|read on OPEN only. */
let limited: string;
/** The same, with query|read on SECRET too. */
let reader: string;

const matchEvent = (apl: string) => ({ name: "exfiltrate", type: "MatchEvent", aplQuery: apl, intervalMinutes: 1, rangeMinutes: 1 });

beforeAll(async () => {
  t = await startTestEmulator();
  for (const name of [SECRET, OPEN]) await t.ok("POST", "/v2/datasets", { name });
  // More than the 500 a MatchEvent monitor may match in a day.
  await t.ok("POST", `/v1/datasets/${SECRET}/ingest`, Array.from({ length: 553 }, (_, i) => ({ card: `4111-${i}`, amount: i })));
  await t.ok("POST", `/v1/datasets/${OPEN}/ingest`, [{ id: 1, status: 200 }]);
  const base = { orgCapabilities: { monitors: CRUD, views: CRUD } };
  limited = await tokenWith(t, { ...base, datasetCapabilities: { [OPEN]: { query: ["read"], starredQueries: CRUD }, [SECRET]: { starredQueries: CRUD } } });
  reader = await tokenWith(t, { ...base, datasetCapabilities: { [OPEN]: { query: ["read"] }, [SECRET]: { query: ["read"] } } });
});
afterAll(() => t.close());

describe("creating a monitor", () => {
  it("on a dataset the token may not query is 403 naming the capability and the dataset, before the match count", async () => {
    const refused = await t.call("POST", "/v2/monitors", { token: limited, body: matchEvent(`['${SECRET}'] | where amount >= 0`) });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(REFUSAL);
    expect(JSON.stringify(refused.body)).not.toMatch(/matched|553/);
    // The same query from a token that may read it gets the count refusal: the order is what hid it.
    const counted = await t.call("POST", "/v2/monitors", { token: reader, body: matchEvent(`['${SECRET}'] | where amount >= 0`) });
    expect(counted.status).toBe(400);
    expect(counted.body.message).toMatch(/matched 553 events/);
  });

  it("answers 403 before a compile error, and for a dataset that does not exist", async () => {
    for (const apl of [`['${SECRET}'] | where no_such_field == 1 | summarize count()`, `['${OPEN}'] | join kind=inner (['${SECRET}'] | where nope > 1) on id | summarize count()`]) {
      const refused = await t.call("POST", "/v2/monitors", { token: limited, body: { ...matchEvent(apl), type: "Threshold", operator: "Above", threshold: 1 } });
      expect(refused.status, apl).toBe(403);
      expect(refused.body.message).toBe(REFUSAL);
    }
    const ghost = await t.call("POST", "/v2/monitors", { token: limited, body: matchEvent("['no-such-dataset'] | where x == 1") });
    expect(ghost.status).toBe(403);
    expect(ghost.body.message).toMatch(/datasetCapabilities\["no-such-dataset"\]\.query\|read/);
  });

  it("creates nothing when refused, and creates what the token may read", async () => {
    const before = (await t.ok("GET", "/v2/monitors")).length;
    await t.call("POST", "/v2/monitors", { token: limited, body: matchEvent(`['${SECRET}']`) });
    expect((await t.ok("GET", "/v2/monitors")).length).toBe(before);
    const made = await t.call("POST", "/v2/monitors", { token: limited, body: matchEvent(`['${OPEN}'] | where status >= 500`) });
    expect(made.status).toBe(200);
  });
});

describe("changing a monitor, a view or a starred query", () => {
  it("needs query|read on what the stored query reads, whoever created it", async () => {
    const mine = await t.ok("POST", "/v2/monitors", { ...matchEvent(`['${SECRET}'] | where amount > 10000`) });
    const put = await t.call("PUT", `/v2/monitors/${mine.id}`, { token: limited, body: { ...matchEvent(`['${SECRET}'] | where amount > 10000`), name: "renamed" } });
    expect(put.status).toBe(403);
    expect(put.body.message).toBe(REFUSAL);
  });

  it("refuses views and starred queries over a dataset the token may not query", async () => {
    const view = await t.call("POST", "/v2/views", { token: limited, body: { name: "cards", aplQuery: `['${SECRET}']`, datasets: [SECRET] } });
    expect(view.status).toBe(403);
    expect(view.body.message).toBe(REFUSAL);
    const existing = await t.ok("POST", "/v2/views", { name: "open", aplQuery: `['${OPEN}']`, datasets: [OPEN] });
    const changed = await t.call("PUT", `/v2/views/${existing.id}`, { token: limited, body: { name: "open", aplQuery: `union ['${OPEN}'], ['${SECRET}']`, datasets: [OPEN] } });
    expect(changed.status).toBe(403);
    const starred = await t.call("POST", "/v2/apl-starred-queries", { token: limited, body: { dataset: SECRET, kind: "apl", name: "s", query: { apl: `['${SECRET}'] | take 5` }, metadata: {} } });
    expect(starred.status).toBe(403);
    expect(starred.body.message).toBe(REFUSAL);
  });
});

describe("a query", () => {
  it("naming a dataset the caller may not read is 403 before its other datasets' compile errors", async () => {
    const refused = await t.call("POST", "/v1/datasets/_apl?format=tabular", { token: limited, body: { apl: `['${OPEN}'] | where nope == 1 | union ['${SECRET}']` } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(REFUSAL);
  });
});
