// No existence oracles: a caller without the capability a route needs gets the same
// answer for an id that exists and for one that does not, on every route that names
// one. Two callers: a token with no capability at all, and one with every capability
// except the kind's (so that other grants lend nothing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASET_GRANTS, ORG_GRANTS, startTestEmulator, tokenWith, type Reply, type TestEmulator } from "./helpers";

const DS = "oracle-logs";

interface Route {
  name: string;
  method: string;
  /** The path for an id. */
  path(id: string): string;
  body?: unknown;
  /** Makes a record with the admin token; answers its id. */
  existing(): Promise<string>;
  unknown: string;
  /** The capability the caller lacks: an org key, or a dataset key. */
  lacks: { org: string } | { dataset: string };
}

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
  await t.ok("POST", "/v2/datasets", { name: DS });
  await t.ok("POST", `/v1/datasets/${DS}/ingest`, [{ status: 200, card: "4111111111111111" }]);
});
afterAll(() => t.close());

let seq = 0;
const unique = (): string => `x${Date.now().toString(36)}${seq++}`;
const made = (path: string, body: (u: string) => unknown, key = "id") => async (): Promise<string> => (await t.ok("POST", path, body(unique())))[key] as string;

const notifier = (u: string) => ({ name: u, properties: { webhook: { url: "http://127.0.0.1:9/hook" } } });
const monitor = (u: string) => ({ name: u, type: "Threshold", operator: "Above", threshold: 1, aplQuery: `['${DS}'] | summarize count()`, intervalMinutes: 5, rangeMinutes: 5 });
const view = (u: string) => ({ name: u, aplQuery: `['${DS}']`, datasets: [DS] });
const annotation = (u: string) => ({ datasets: [DS], type: "deploy", title: u, time: "2027-01-01T10:00:00Z" });
const vfield = (u: string) => ({ dataset: DS, name: u, expression: "status * 2" });
const starred = (u: string) => ({ dataset: DS, kind: "apl", name: u, query: { apl: `['${DS}']` }, metadata: {} });
const dashboard = (u: string) => ({
  uid: u,
  dashboard: { name: u, owner: "X-AXIOM-EVERYONE", charts: [], layout: [], refreshTime: 60, schemaVersion: 2, timeWindowStart: "qr-now-1h", timeWindowEnd: "qr-now" },
});

const crud = (name: string, base: string, lacks: Route["lacks"], make: () => Promise<string>, body: unknown, unknown: string): Route[] => [
  { name: `GET ${name}`, method: "GET", path: (id) => `${base}/${id}`, existing: make, unknown, lacks },
  { name: `PUT ${name}`, method: "PUT", path: (id) => `${base}/${id}`, body, existing: make, unknown, lacks },
  { name: `DELETE ${name}`, method: "DELETE", path: (id) => `${base}/${id}`, existing: make, unknown, lacks },
];

const ROUTES: Route[] = [
  ...crud("notifier", "/v2/notifiers", { org: "notifiers" }, made("/v2/notifiers", notifier), notifier("n"), "ntf_0000000000000000"),
  ...crud("role", "/v2/rbac/roles", { org: "rbac" }, made("/v2/rbac/roles", (u) => ({ name: u })), { name: "r" }, "role_0000000000000000"),
  ...crud("monitor", "/v2/monitors", { org: "monitors" }, made("/v2/monitors", monitor), monitor("m"), "mon_0000000000000000"),
  { name: "GET monitor history", method: "GET", path: (id) => `/v2/monitors/${id}/history?startTime=2020-01-01T00:00:00Z&endTime=2030-01-01T00:00:00Z`, existing: made("/v2/monitors", monitor), unknown: "mon_0000000000000000", lacks: { org: "monitors" } },
  ...crud("annotation", "/v2/annotations", { org: "annotations" }, made("/v2/annotations", annotation), annotation("a"), "ann_0000000000000000"),
  ...crud("view", "/v2/views", { org: "views" }, made("/v2/views", view), view("v"), "view_0000000000000000"),
  ...crud("dashboard", "/v2/dashboards/uid", { org: "dashboards" }, async () => {
    const u = unique();
    await t.ok("POST", "/v2/dashboards", dashboard(u));
    return u;
  }, { ...dashboard("d"), overwrite: true }, "no-such-dashboard"),
  { name: "GET token", method: "GET", path: (id) => `/v2/tokens/${id}`, existing: made("/v2/tokens", (u) => ({ name: u })), unknown: "tok_0000000000000000", lacks: { org: "apiTokens" } },
  { name: "DELETE token", method: "DELETE", path: (id) => `/v2/tokens/${id}`, existing: made("/v2/tokens", (u) => ({ name: u })), unknown: "tok_0000000000000000", lacks: { org: "apiTokens" } },
  {
    name: "POST token regenerate",
    method: "POST",
    path: (id) => `/v2/tokens/${id}/regenerate`,
    body: { existingTokenExpiresAt: "2030-01-01T00:00:00Z" },
    existing: made("/v2/tokens", (u) => ({ name: u })),
    unknown: "tok_0000000000000000",
    lacks: { org: "apiTokens" },
  },
  { name: "GET user", method: "GET", path: (id) => `/v2/users/${id}`, existing: made("/v2/users", (u) => ({ email: `${u}@example.com`, name: u, role: "user" })), unknown: "usr_0000000000000000", lacks: { org: "users" } },
  { name: "PUT user role", method: "PUT", path: (id) => `/v2/users/${id}/role`, body: { role: "admin" }, existing: made("/v2/users", (u) => ({ email: `${u}@example.com`, name: u, role: "user" })), unknown: "usr_0000000000000000", lacks: { org: "users" } },
  { name: "DELETE user", method: "DELETE", path: (id) => `/v2/users/${id}`, existing: made("/v2/users", (u) => ({ email: `${u}@example.com`, name: u, role: "user" })), unknown: "usr_0000000000000000", lacks: { org: "users" } },
  ...crud("dataset", "/v2/datasets", { org: "datasets" }, made("/v2/datasets", (u) => ({ name: `ds-${u}` }), "name"), { description: "d" }, "no-such-dataset"),
  { name: "GET dataset fields", method: "GET", path: (id) => `/v2/datasets/${id}/fields`, existing: async () => DS, unknown: "no-such-dataset", lacks: { org: "datasets" } },
  { name: "GET dataset field", method: "GET", path: (id) => `/v2/datasets/${DS}/fields/${id}`, existing: async () => "status", unknown: "no_such_field", lacks: { org: "datasets" } },
  { name: "PUT dataset field", method: "PUT", path: (id) => `/v2/datasets/${DS}/fields/${id}`, body: { unit: "ms" }, existing: async () => "status", unknown: "no_such_field", lacks: { org: "datasets" } },
  ...crud("virtual field", "/v2/vfields", { dataset: "virtualFields" }, made("/v2/vfields", vfield), vfield("v2"), "vfd_0000000000000000"),
  ...crud("starred query", "/v2/apl-starred-queries", { dataset: "starredQueries" }, made("/v2/apl-starred-queries", starred), starred("s2"), "sq_0000000000000000"),
  { name: "POST ingest", method: "POST", path: (id) => `/v1/datasets/${id}/ingest`, body: [{ status: 1 }], existing: async () => DS, unknown: "no-such-dataset", lacks: { dataset: "ingest" } },
  { name: "POST legacy query", method: "POST", path: (id) => `/v1/datasets/${id}/query`, body: {}, existing: async () => DS, unknown: "no-such-dataset", lacks: { dataset: "query" } },
];

/** The APL endpoint names its dataset in the body, not the path. */
const APL: Route = { name: "POST _apl", method: "POST", path: () => "/v1/datasets/_apl?format=tabular", existing: async () => DS, unknown: "no-such-dataset", lacks: { dataset: "query" } };

function allBut(lacks: Route["lacks"]): Record<string, unknown> {
  const org = Object.fromEntries(Object.entries(ORG_GRANTS).filter(([k]) => !("org" in lacks && k === lacks.org)));
  const ds = Object.fromEntries(Object.entries(DATASET_GRANTS).filter(([k]) => !("dataset" in lacks && k === lacks.dataset)));
  return { orgCapabilities: org, datasetCapabilities: { "*": ds } };
}

/** The answer with the id taken out of the message, which may name what was asked for. */
function shape(reply: Reply, id: string): { status: number; body: unknown } {
  return { status: reply.status, body: JSON.parse(JSON.stringify(reply.body ?? null).split(id).join("<id>")) };
}

describe("no existence oracles", () => {
  for (const route of [...ROUTES, APL]) {
    it(`${route.name}: the same answer for an existing and an unknown id without the capability`, async () => {
      const id = await route.existing();
      for (const caps of [{}, allBut(route.lacks)]) {
        const token = await tokenWith(t, caps);
        const send = (which: string) =>
          route === APL
            ? t.call("POST", route.path(which), { token, body: { apl: `['${which}'] | count` } })
            : t.call(route.method, route.path(which), { token, body: route.body });
        const [known, unknown] = [await send(id), await send(route.unknown)];
        expect(known.status, JSON.stringify(known.body)).toBeGreaterThanOrEqual(400);
        expect(shape(known, id), JSON.stringify(caps)).toEqual(shape(unknown, route.unknown));
      }
    });
  }

  it("a view readable by name is still shown to a caller without the views capability", async () => {
    const v = await t.ok("POST", "/v2/views", view("byname"));
    const token = await tokenWith(t, { viewCapabilities: { [v.name]: { query: ["read"] } } });
    expect((await t.call("GET", `/v2/views/${v.id}`, { token })).status).toBe(200);
    expect((await t.call("GET", "/v2/views/view_0000000000000000", { token })).status).toBe(403);
  });
});
