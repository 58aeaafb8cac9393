// Authorization on every write, as an attacker holding a weak token would try it. The
// table below has an entry for every route of the emulator's routing table that is not
// a GET (a route added without one fails the first test), and sends each with the
// caller's grants varied: none, create only, read only, every action but read ("blind"),
// all of the kind's, and, where objects belong to a team (a dataset), full grants on
// the caller's own dataset against an object on another team's.
//
// Where the object is one the caller may not act on, two things must hold: the status
// is the one the contract gives, and the answer for the existing object is byte for
// byte the answer for an id that does not exist (the ids the caller sent taken out),
// so that a refusal tells nothing about the object. And the object is unchanged.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTE_TABLE } from "../../src/emulator/route-table";
import { startTestEmulator, tokenWith, type TestEmulator } from "../emulator/helpers";

/** The caller's team's dataset, and another team's. */
const MINE = "wa-mine";
const THEIRS = "wa-theirs";
const NO_DATASET = "wa-no-such-dataset";
const CRUD = ["create", "read", "update", "delete"];

type CallerClass = "none" | "createOnly" | "readOnly" | "blind" | "full" | "otherTeam";
type Caps = Record<string, unknown>;

interface WriteCase {
  /** What the case tries, for the test's name. */
  what: string;
  callers: Partial<Record<CallerClass, Caps>>;
  /** The status each caller gets (for a target route: on an existing object). */
  expect: Partial<Record<CallerClass, number>>;
  /** Routes on an object: makes one as admin, in the caller's team's dataset or another's; answers the path's id. */
  target?: {
    make(team: "mine" | "theirs"): Promise<string>;
    missing: string;
    /** The admin's GET path of the object, to see that a refusal changed nothing. */
    get?: (id: string) => string;
  };
  path(id: string): string;
  /** The body `who` sends, naming `id` where it names the object. */
  body(id: string, who: CallerClass): unknown;
}

interface Raw {
  status: number;
  text: string;
}

let t: TestEmulator;
let seq = 0;
const unique = (): string => `wa${Date.now().toString(36)}${seq++}`;

async function send(method: string, urlPath: string, token: string, body: unknown): Promise<Raw> {
  const res = await fetch(t.em.url + urlPath, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** The answer with the id the caller supplied taken out. */
const without = (raw: Raw, id: string): string => `${raw.status} ${raw.text.split(id).join("<id>")}`;

const dsOf = (team: "mine" | "theirs"): string => (team === "mine" ? MINE : THEIRS);
const made = (path: string, body: (u: string, dataset: string) => unknown, key = "id") => async (team: "mine" | "theirs"): Promise<string> =>
  (await t.ok("POST", path, body(unique(), dsOf(team))))[key] as string;

const notifier = (u: string) => ({ name: u, properties: { webhook: { url: "http://127.0.0.1:9/hook" } } });
const monitor = (u: string, ds = MINE) => ({ name: u, type: "Threshold", operator: "Above", threshold: 1, aplQuery: `['${ds}'] | summarize count()`, intervalMinutes: 5, rangeMinutes: 5 });
const view = (u: string, ds = MINE) => ({ name: u, aplQuery: `['${ds}']`, datasets: [ds] });
const annotation = (u: string, ds = MINE) => ({ datasets: [ds], type: "deploy", title: u, time: "2027-01-01T10:00:00Z" });
const vfield = (u: string, ds = MINE) => ({ dataset: ds, name: u, expression: "status * 2" });
const starred = (u: string, ds = MINE) => ({ dataset: ds, kind: "apl", name: u, query: { apl: `['${ds}']` }, metadata: {} });
const document = (u: string, owner = "X-AXIOM-EVERYONE") => ({ name: u, owner, charts: [], layout: [], refreshTime: 60, schemaVersion: 2, timeWindowStart: "qr-now-1h", timeWindowEnd: "qr-now" });
const user = (u: string) => ({ email: `${u}@example.com`, name: u, role: "user" });

/** Grants of an org-scoped kind, with what its bodies need besides (a dataset the query reads). */
function orgCallers(key: string, extra: Caps = {}, writes = ["create", "update", "delete"]): Partial<Record<CallerClass, Caps>> {
  const grant = (actions: string[]): Caps => ({ ...extra, orgCapabilities: { ...(extra.orgCapabilities as object), [key]: actions } });
  return { none: {}, createOnly: grant(["create"]), readOnly: grant(["read"]), blind: grant(writes), full: grant(CRUD) };
}

/** Grants of a dataset-scoped kind on the caller's own dataset; otherTeam holds them all there. */
function datasetCallers(key: string): Partial<Record<CallerClass, Caps>> {
  const on = (actions: string[]): Caps => ({ datasetCapabilities: { [MINE]: { [key]: actions, query: ["read"] } } });
  return { none: {}, createOnly: on(["create"]), readOnly: on(["read"]), blind: on(["create", "update", "delete"]), full: on(CRUD), otherTeam: on(CRUD) };
}

const QUERY_MINE: Caps = { datasetCapabilities: { [MINE]: { query: ["read"] } } };
/** Update and delete of an object: refused for all but a caller holding every action. */
const WRITE_EXPECT = (ok: number, otherTeam?: number) => ({ none: 403, createOnly: 403, readOnly: 403, blind: 403, full: ok, ...(otherTeam ? { otherTeam } : {}) });
const CREATE_EXPECT = (otherTeam?: number) => ({ none: 403, createOnly: 200, readOnly: 403, blind: 200, full: 200, ...(otherTeam ? { otherTeam } : {}) });

function crudCases(base: string, callers: Partial<Record<CallerClass, Caps>>, make: (team: "mine" | "theirs") => Promise<string>, body: (u: string, dataset: string) => unknown, missing: string, otherTeam?: number): Record<string, WriteCase[]> {
  const target = { make, missing, get: (id: string) => `${base}/${id}` };
  return {
    [`POST ${base}`]: [{ what: "create", callers, expect: CREATE_EXPECT(otherTeam === undefined ? undefined : 403), path: () => base, body: (_id, who) => body(unique(), who === "otherTeam" ? THEIRS : MINE) }],
    [`PUT ${base}/:id`]: [{ what: "replace", callers, expect: WRITE_EXPECT(200, otherTeam), target, path: (id) => `${base}/${id}`, body: () => body(unique(), MINE) }],
    [`DELETE ${base}/:id`]: [{ what: "delete", callers, expect: WRITE_EXPECT(204, otherTeam), target, path: (id) => `${base}/${id}`, body: () => undefined }],
  };
}

const dashboardTarget = {
  make: async (): Promise<string> => {
    const u = unique();
    await t.ok("POST", "/v2/dashboards", { uid: u, dashboard: document(u) });
    return u;
  },
  missing: "wa-no-such-dashboard",
  get: (uid: string) => `/v2/dashboards/uid/${uid}`,
};
const tokenTarget = { make: made("/v2/tokens", (u) => ({ name: u })), missing: "tok_0000000000000000", get: (id: string) => `/v2/tokens/${id}` };
const userTarget = { make: made("/v2/users", user), missing: "usr_0000000000000000", get: (id: string) => `/v2/users/${id}` };
const datasetTarget = { make: made("/v2/datasets", (u) => ({ name: `ds-${u}` }), "name"), missing: NO_DATASET, get: (id: string) => `/v2/datasets/${id}` };

/** Every route of the table that is not a GET, by "METHOD pattern". */
const CASES: Record<string, WriteCase[]> = {
  ...crudCases("/v2/notifiers", orgCallers("notifiers"), made("/v2/notifiers", notifier), notifier, "ntf_0000000000000000"),
  // Roles are written with rbac|create (contract, section 3): "blind" is create alone.
  ...crudCases("/v2/rbac/roles", orgCallers("rbac", {}, ["create"]), made("/v2/rbac/roles", (u) => ({ name: u })), (u) => ({ name: u }), "rol_0000000000000000"),
  ...crudCases("/v2/monitors", orgCallers("monitors", QUERY_MINE), made("/v2/monitors", monitor), monitor, "mon_0000000000000000"),
  // A view is another team's when the caller may read views by name, but not this one's.
  ...crudCases("/v2/views", { ...orgCallers("views", QUERY_MINE), otherTeam: { ...QUERY_MINE, orgCapabilities: { views: ["create", "update", "delete"] }, viewCapabilities: { "wa-our-view": { query: ["read"] } } } }, made("/v2/views", view), view, "view_0000000000000000", 403),
  ...crudCases("/v2/annotations", { ...orgCallers("annotations", QUERY_MINE), otherTeam: { ...QUERY_MINE, orgCapabilities: { annotations: CRUD } } }, made("/v2/annotations", annotation), annotation, "ann_0000000000000000", 404),
  ...crudCases("/v2/vfields", datasetCallers("virtualFields"), made("/v2/vfields", vfield), vfield, "vfd_0000000000000000", 404),
  ...crudCases("/v2/apl-starred-queries", datasetCallers("starredQueries"), made("/v2/apl-starred-queries", starred), starred, "sq_0000000000000000", 404),
  "POST /v2/dashboards": [
    { what: "create", callers: orgCallers("dashboards"), expect: CREATE_EXPECT(), path: () => "/v2/dashboards", body: () => ({ uid: unique(), dashboard: document("d") }) },
    {
      // A token that may create but not read never overwrites, with or without `overwrite`.
      what: "overwrite a taken uid",
      callers: orgCallers("dashboards"),
      expect: { none: 403, createOnly: 409, readOnly: 403, blind: 409, full: 200 },
      target: dashboardTarget,
      path: () => "/v2/dashboards",
      body: (uid) => ({ uid, dashboard: document("overwritten"), overwrite: true }),
    },
  ],
  "PUT /v2/dashboards/uid/:uid": [{ what: "replace", callers: orgCallers("dashboards"), expect: WRITE_EXPECT(200), target: dashboardTarget, path: (uid) => `/v2/dashboards/uid/${uid}`, body: () => ({ dashboard: document("replaced"), overwrite: true }) }],
  "DELETE /v2/dashboards/uid/:uid": [{ what: "delete", callers: orgCallers("dashboards"), expect: WRITE_EXPECT(204), target: dashboardTarget, path: (uid) => `/v2/dashboards/uid/${uid}`, body: () => undefined }],
  "POST /v2/tokens": [{ what: "create", callers: orgCallers("apiTokens"), expect: CREATE_EXPECT(), path: () => "/v2/tokens", body: () => ({ name: unique() }) }],
  // Tokens are guarded by coverage instead (section 5): a caller reaches the tokens it covers.
  "POST /v2/tokens/:id/regenerate": [{ what: "regenerate", callers: orgCallers("apiTokens"), expect: { none: 403, createOnly: 403, readOnly: 403, blind: 200, full: 200 }, target: tokenTarget, path: (id) => `/v2/tokens/${id}/regenerate`, body: () => ({ existingTokenExpiresAt: "2030-01-01T00:00:00Z" }) }],
  "DELETE /v2/tokens/:id": [{ what: "delete", callers: orgCallers("apiTokens"), expect: { none: 403, createOnly: 403, readOnly: 403, blind: 204, full: 204 }, target: tokenTarget, path: (id) => `/v2/tokens/${id}`, body: () => undefined }],
  "POST /v2/users": [{ what: "create", callers: orgCallers("users"), expect: CREATE_EXPECT(), path: () => "/v2/users", body: () => user(unique()) }],
  "PUT /v2/users/:id/role": [{ what: "change role", callers: orgCallers("users"), expect: WRITE_EXPECT(200), target: userTarget, path: (id) => `/v2/users/${id}/role`, body: () => ({ role: "read-only" }) }],
  "DELETE /v2/users/:id": [{ what: "delete", callers: orgCallers("users"), expect: WRITE_EXPECT(204), target: userTarget, path: (id) => `/v2/users/${id}`, body: () => undefined }],
  // The caller's own name: any valid token, and it reaches no one else.
  "PUT /v2/user": [{ what: "rename oneself", callers: { none: {} }, expect: { none: 200 }, path: () => "/v2/user", body: () => ({ name: unique() }) }],
  "POST /v2/datasets": [{ what: "create", callers: orgCallers("datasets"), expect: CREATE_EXPECT(), path: () => "/v2/datasets", body: () => ({ name: `ds-${unique()}` }) }],
  "PUT /v2/datasets/:id": [{ what: "describe", callers: orgCallers("datasets"), expect: WRITE_EXPECT(200), target: datasetTarget, path: (id) => `/v2/datasets/${id}`, body: () => ({ description: "changed" }) }],
  "DELETE /v2/datasets/:id": [{ what: "delete", callers: orgCallers("datasets"), expect: WRITE_EXPECT(204), target: datasetTarget, path: (id) => `/v2/datasets/${id}`, body: () => undefined }],
  "PUT /v2/datasets/:id/fields/:field": [
    {
      what: "change a field",
      callers: orgCallers("datasets"),
      expect: WRITE_EXPECT(200),
      target: { make: async () => "status", missing: "no_such_field", get: (f) => `/v2/datasets/${MINE}/fields/${f}` },
      path: (f) => `/v2/datasets/${MINE}/fields/${f}`,
      body: () => ({ unit: "ms" }),
    },
  ],
  // Datasets named in a path or a query are checked by name, before they are looked up.
  "POST /v1/datasets/:name/ingest": [
    {
      what: "ingest",
      callers: { none: {}, otherTeam: { datasetCapabilities: { [MINE]: { ingest: ["create"] } } }, full: { datasetCapabilities: { [THEIRS]: { ingest: ["create"] } } } },
      expect: { none: 403, otherTeam: 403, full: 200 },
      target: { make: async () => THEIRS, missing: NO_DATASET },
      path: (ds) => `/v1/datasets/${ds}/ingest`,
      body: () => [{ status: 1 }],
    },
  ],
  "POST /v1/datasets/_apl": [
    {
      what: "query and save to history",
      callers: { none: {}, otherTeam: QUERY_MINE, full: { datasetCapabilities: { [THEIRS]: { query: ["read"] } } } },
      expect: { none: 403, otherTeam: 403, full: 200 },
      target: { make: async () => THEIRS, missing: NO_DATASET },
      path: (ds) => `/v1/datasets/_apl?format=tabular&saveAsKind=apl&dataset_name=${ds}`,
      body: (ds) => ({ apl: `['${ds}'] | count` }),
    },
  ],
  "POST /v1/datasets/:name/query": [
    {
      what: "legacy query",
      callers: { none: {}, otherTeam: QUERY_MINE, full: { datasetCapabilities: { [THEIRS]: { query: ["read"] } } } },
      expect: { none: 403, otherTeam: 403, full: 200 },
      target: { make: async () => THEIRS, missing: NO_DATASET },
      path: (ds) => `/v1/datasets/${ds}/query`,
      body: () => ({}),
    },
  ],
};

const tokens = new Map<string, string>();
/** A token with exactly these grants (one per distinct set). */
async function caller(caps: Caps): Promise<string> {
  const key = JSON.stringify(caps);
  if (!tokens.has(key)) tokens.set(key, await tokenWith(t, caps));
  return tokens.get(key)!;
}

beforeAll(async () => {
  t = await startTestEmulator();
  for (const name of [MINE, THEIRS]) {
    await t.ok("POST", "/v2/datasets", { name });
    await t.ok("POST", `/v1/datasets/${name}/ingest`, [{ status: 200 }]);
  }
});
afterAll(() => t.close());

describe("the write routes of the routing table", () => {
  it("each has an entry in this table, and each entry a route", () => {
    const writes = ROUTE_TABLE.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.pattern}`);
    expect(writes.length).toBeGreaterThan(30);
    expect(writes.filter((w) => !(w in CASES)), "write routes without an authorization case").toEqual([]);
    expect(Object.keys(CASES).filter((k) => !writes.includes(k)), "cases for routes the table does not have").toEqual([]);
  });

  for (const [route, cases] of Object.entries(CASES)) {
    const [method] = route.split(" ");
    for (const c of cases) {
      it(`${route} (${c.what}): the status per caller, and the same answer for an object it may not act on as for a missing one`, async () => {
        for (const [who, caps] of Object.entries(c.callers) as [CallerClass, Caps][]) {
          const token = await caller(caps);
          const status = c.expect[who];
          if (!c.target) {
            const reply = await send(method!, c.path(""), token, c.body("", who));
            expect(reply.status, `${who}: ${reply.text}`).toBe(status);
            continue;
          }
          const id = await c.target.make(who === "otherTeam" ? "theirs" : "mine");
          const before = c.target.get ? await t.call("GET", c.target.get(id)) : undefined;
          const existing = await send(method!, c.path(id), token, c.body(id, who));
          expect(existing.status, `${who}: ${existing.text}`).toBe(status);
          if (status! < 300) continue;
          const missing = await send(method!, c.path(c.target.missing), token, c.body(c.target.missing, who));
          // A create over a taken uid is a create where the uid is free: the one thing it must not tell is the dashboard's details.
          if (route !== "POST /v2/dashboards") expect(without(existing, id), who).toBe(without(missing, c.target.missing));
          if (before) expect((await t.call("GET", c.target.get!(id))).body, `${who}: the object changed`).toEqual(before.body);
        }
      });
    }
  }
});

describe("a dashboard's uid taken by a dashboard the caller may not read", () => {
  it("answers 409 with no version, author or time, and overwrites nothing", async () => {
    const author = await t.ok("POST", "/v2/users", user(unique()));
    const authorToken = await tokenWith(t, { orgCapabilities: { dashboards: CRUD } });
    const uid = unique();
    await t.ok("POST", "/v2/dashboards", { uid, dashboard: document("theirs", author.id) });
    await t.ok("PUT", `/v2/dashboards/uid/${uid}`, { dashboard: document("theirs v2", author.id) }, authorToken);
    const before = await t.ok("GET", `/v2/dashboards/uid/${uid}`);
    for (const caps of [{ dashboards: ["create"] }, { dashboards: ["create", "update", "delete"] }]) {
      const token = await tokenWith(t, { orgCapabilities: caps });
      for (const overwrite of [false, true]) {
        const reply = await send("POST", "/v2/dashboards", token, { uid, dashboard: document("mine"), overwrite });
        expect(reply.status, reply.text).toBe(409);
        const body = JSON.parse(reply.text) as Record<string, unknown>;
        expect(body.currentVersion).toBeUndefined();
        for (const secret of [before.updatedBy, before.updatedAt, before.createdBy, `version ${before.version}`]) expect(reply.text).not.toContain(secret);
      }
    }
    expect(await t.ok("GET", `/v2/dashboards/uid/${uid}`)).toEqual(before);
    // A caller who may read it is told whose change it would overwrite.
    const reader = await tokenWith(t, { orgCapabilities: { dashboards: CRUD } });
    const told = await send("POST", "/v2/dashboards", reader, { uid, dashboard: document("mine") });
    expect(told.status).toBe(409);
    expect(JSON.parse(told.text)).toMatchObject({ uid, currentVersion: before.version });
    expect(told.text).toContain(before.updatedBy);
  });
});

describe("references answer alike for a missing object and one the caller may not see", () => {
  /** The two answers for a body naming `hidden` and one naming `missing`, ids taken out. */
  async function both(token: string, method: string, urlPath: string, body: (ref: string) => unknown, hidden: string, missing: string): Promise<[string, string, Raw]> {
    const a = await send(method, urlPath, token, body(hidden));
    const b = await send(method, urlPath, token, body(missing));
    return [without(a, hidden), without(b, missing), a];
  }

  it("an annotation needs query|read on each dataset it names; a dataset without the grant answers as a missing one", async () => {
    const token = await caller({ orgCapabilities: { annotations: CRUD }, ...QUERY_MINE });
    const [hidden, missing, raw] = await both(token, "POST", "/v2/annotations", (ds) => annotation("a", ds), THEIRS, NO_DATASET);
    expect(raw.status, raw.text).toBe(403);
    expect(hidden).toBe(missing);
    const mine = await t.ok("POST", "/v2/annotations", annotation("m"));
    const [h2, m2] = await both(token, "PUT", `/v2/annotations/${mine.id}`, (ds) => annotation("a", ds), THEIRS, NO_DATASET);
    expect(h2).toBe(m2);
    // It lists only annotations it may see, and the datasets it holds a grant on.
    await t.ok("POST", "/v2/annotations", annotation("theirs", THEIRS));
    const listed = (await t.ok("GET", "/v2/annotations", undefined, token)) as { datasets: string[] }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.flatMap((a) => a.datasets)).not.toContain(THEIRS);
    const datasets = (await t.ok("GET", "/v2/datasets", undefined, token)) as { name: string }[];
    expect(datasets.map((d) => d.name)).toEqual([MINE]);
  });

  it("a monitor names only notifiers its writer may read, one answer for missing and unreadable", async () => {
    const other = await t.ok("POST", "/v2/notifiers", notifier("another-team"));
    const token = await caller({ orgCapabilities: { monitors: CRUD }, ...QUERY_MINE });
    const body = (id: string) => ({ ...monitor("m"), notifierIds: [id] });
    const [hidden, missing, raw] = await both(token, "POST", "/v2/monitors", body, other.id, "ntf_0000000000000000");
    expect(raw.status, raw.text).toBe(400);
    expect(hidden).toBe(missing);
    const existing = await t.ok("POST", "/v2/monitors", monitor("m2"));
    const [h2, m2] = await both(token, "PUT", `/v2/monitors/${existing.id}`, body, other.id, "ntf_0000000000000000");
    expect(h2).toBe(m2);
    // A monitor that names it already keeps it through a write that sends it back.
    const attached = await t.ok("POST", "/v2/monitors", body(other.id));
    expect((await send("PUT", `/v2/monitors/${attached.id}`, token, { ...body(other.id), name: "renamed" })).status).toBe(200);
    // A writer who may read notifiers attaches them; an unknown id is still refused.
    const reader = await caller({ orgCapabilities: { monitors: CRUD, notifiers: ["read"] }, ...QUERY_MINE });
    expect((await send("POST", "/v2/monitors", reader, body(other.id))).status).toBe(200);
    expect((await send("POST", "/v2/monitors", reader, body("ntf_0000000000000000"))).status).toBe(400);
  });

  it("a dashboard's owner: the same answer for a missing user and one the caller may not read", async () => {
    const hiddenUser = await t.ok("POST", "/v2/users", user(unique()));
    const token = await caller({ orgCapabilities: { dashboards: CRUD } });
    const body = (owner: string) => ({ uid: unique(), dashboard: document("d", owner) });
    const a = await send("POST", "/v2/dashboards", token, body(hiddenUser.id));
    const b = await send("POST", "/v2/dashboards", token, body("usr_0000000000000000"));
    expect(a.status, a.text).toBe(400);
    expect(without(a, hiddenUser.id)).toBe(without(b, "usr_0000000000000000"));
    const me = await t.ok("GET", "/v2/user", undefined, token);
    expect((await send("POST", "/v2/dashboards", token, body(me.id))).status).toBe(200);
    const reader = await caller({ orgCapabilities: { dashboards: CRUD, users: ["read"] } });
    expect((await send("POST", "/v2/dashboards", reader, body(hiddenUser.id))).status).toBe(200);
    expect((await send("POST", "/v2/dashboards", reader, body("usr_0000000000000000"))).status).toBe(400);
  });

  it("a starred query's who: the same answer for a missing user and one the caller may not read", async () => {
    const hiddenUser = await t.ok("POST", "/v2/users", user(unique()));
    const token = await caller({ datasetCapabilities: { [MINE]: { starredQueries: CRUD, query: ["read"] } } });
    const body = (who: string) => ({ ...starred(unique()), who });
    const [hidden, missing, raw] = await both(token, "POST", "/v2/apl-starred-queries", body, hiddenUser.id, "usr_0000000000000000");
    expect(raw.status, raw.text).toBe(400);
    expect(hidden).toBe(missing);
    expect((await send("POST", "/v2/apl-starred-queries", token, body("team"))).status).toBe(200);
  });

  it("a taken name or e-mail is said, but not the id of an object the caller may not read", async () => {
    const v = await t.ok("POST", "/v2/views", view(unique()));
    const viewMaker = await caller({ orgCapabilities: { views: ["create"] }, ...QUERY_MINE });
    const viewReply = await send("POST", "/v2/views", viewMaker, view(v.name));
    expect(viewReply.status).toBe(409);
    expect(viewReply.text).not.toContain(v.id);
    const u = await t.ok("POST", "/v2/users", user(unique()));
    const userMaker = await caller({ orgCapabilities: { users: ["create"] } });
    const userReply = await send("POST", "/v2/users", userMaker, user(u.email.split("@")[0]));
    expect(userReply.status).toBe(409);
    expect(userReply.text).not.toContain(u.id);
    const f = await t.ok("POST", "/v2/vfields", vfield(unique()));
    const fieldMaker = await caller({ datasetCapabilities: { [MINE]: { virtualFields: ["create"] } } });
    const fieldReply = await send("POST", "/v2/vfields", fieldMaker, vfield(f.name));
    expect(fieldReply.status).toBe(409);
    expect(fieldReply.text).not.toContain(f.id);
  });
});

describe("the right to read is the kind's own", () => {
  it("a view readable by name through viewCapabilities may be changed with views|update alone", async () => {
    const v = await t.ok("POST", "/v2/views", view(unique()));
    const token = await caller({ ...QUERY_MINE, orgCapabilities: { views: ["update"] }, viewCapabilities: { [v.name]: { query: ["read"] } } });
    const changed = await send("PUT", `/v2/views/${v.id}`, token, { ...view(v.name), description: "ours" });
    expect(changed.status, changed.text).toBe(200);
    const other = await t.ok("POST", "/v2/views", view(unique()));
    expect((await send("PUT", `/v2/views/${other.id}`, token, view(other.name))).status).toBe(403);
  });
});
