// The auth matrix: for every operation, no token -> 401, an expired token -> 401, a
// token holding everything except the operation's capability -> 403, a token holding
// only that capability -> success. Capability names are docs/service-contract.md's. A
// write on an existing object (PUT, DELETE) needs the right to read it too, so "only"
// holds the kind's read with the action there (tokens excepted: section 5 guards them).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATASET_GRANTS as DATASET, ORG_GRANTS as ORG, startTestEmulator, tokenWith, type TestEmulator } from "./helpers";

const DS = "authz";

type Need = { org: [string, string] } | { dataset: [string, string] } | { none: true };

interface Op {
  name: string;
  need: Need;
  /** Also needs query|read on the dataset its stored query reads (allowed with both grants). */
  readsQuery?: true;
  /** Builds a fresh request (objects it needs are made with the admin token). */
  setup(): Promise<{ method: string; path: string; body?: unknown }>;
}

function without(key: string, action: string, table: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [k, k === key ? v.filter((a) => a !== action) : v]));
}

/** Capabilities of a token that holds everything except what `need` names. */
function allBut(need: Need): Record<string, unknown> {
  const org = "org" in need ? without(need.org[0], need.org[1], ORG) : ORG;
  const ds = "dataset" in need ? without(need.dataset[0], need.dataset[1], DATASET) : DATASET;
  return { orgCapabilities: org, datasetCapabilities: { "*": ds, [DS]: ds } };
}

function only(need: Need, readsQuery = false, withRead = false): Record<string, unknown> {
  const query = readsQuery ? { query: ["read"] } : {};
  const actions = (action: string): string[] => (withRead ? [action, "read"] : [action]);
  if ("org" in need) return { orgCapabilities: { [need.org[0]]: actions(need.org[1]) }, ...(readsQuery ? { datasetCapabilities: { [DS]: query } } : {}) };
  if ("dataset" in need) return { datasetCapabilities: { [DS]: { [need.dataset[0]]: actions(need.dataset[1]), ...query } } };
  return {};
}

/** Whether a request changes an existing object (whose read right it needs too). */
const onExisting = (req: { method: string; path: string }): boolean => ["PUT", "DELETE"].includes(req.method) && req.path !== "/v2/user" && !req.path.startsWith("/v2/tokens/");

let t: TestEmulator;
let expired: string;
beforeAll(async () => {
  t = await startTestEmulator();
  await t.ok("POST", "/v2/datasets", { name: DS });
  await t.ok("POST", "/v1/datasets/" + DS + "/ingest", [{ n: 1 }]);
  expired = await tokenWith(t, { orgCapabilities: ORG, datasetCapabilities: { "*": DATASET } }, { expiresAt: "2020-01-01T00:00:00Z" });
});
afterAll(() => t.close());

const notifier = { name: "n", properties: { webhook: { url: "https://x.example.com" } } };
const vfield = { dataset: DS, name: "v", expression: "n * 2" };
const starred = { dataset: DS, kind: "apl", name: "s", query: { apl: `['${DS}']` }, metadata: {} };
let seq = 0;
const unique = (): string => `${Date.now().toString(36)}${seq++}`;
const newVfield = async (): Promise<string> => (await t.ok("POST", "/v2/vfields", { ...vfield, name: `v${unique()}` })).id;

const ops: Op[] = [
  { name: "list notifiers", need: { org: ["notifiers", "read"] }, setup: async () => ({ method: "GET", path: "/v2/notifiers" }) },
  { name: "get notifier", need: { org: ["notifiers", "read"] }, setup: async () => ({ method: "GET", path: `/v2/notifiers/${(await t.ok("POST", "/v2/notifiers", notifier)).id}` }) },
  { name: "create notifier", need: { org: ["notifiers", "create"] }, setup: async () => ({ method: "POST", path: "/v2/notifiers", body: notifier }) },
  { name: "update notifier", need: { org: ["notifiers", "update"] }, setup: async () => ({ method: "PUT", path: `/v2/notifiers/${(await t.ok("POST", "/v2/notifiers", notifier)).id}`, body: notifier }) },
  { name: "delete notifier", need: { org: ["notifiers", "delete"] }, setup: async () => ({ method: "DELETE", path: `/v2/notifiers/${(await t.ok("POST", "/v2/notifiers", notifier)).id}` }) },
  { name: "list roles", need: { org: ["rbac", "read"] }, setup: async () => ({ method: "GET", path: "/v2/rbac/roles" }) },
  { name: "get role", need: { org: ["rbac", "read"] }, setup: async () => ({ method: "GET", path: `/v2/rbac/roles/${(await t.ok("POST", "/v2/rbac/roles", { name: "r" })).id}` }) },
  { name: "create role", need: { org: ["rbac", "create"] }, setup: async () => ({ method: "POST", path: "/v2/rbac/roles", body: { name: "r" } }) },
  { name: "replace role (rbac|create)", need: { org: ["rbac", "create"] }, setup: async () => ({ method: "PUT", path: `/v2/rbac/roles/${(await t.ok("POST", "/v2/rbac/roles", { name: "r" })).id}`, body: { name: "r2" } }) },
  { name: "delete role (rbac|create)", need: { org: ["rbac", "create"] }, setup: async () => ({ method: "DELETE", path: `/v2/rbac/roles/${(await t.ok("POST", "/v2/rbac/roles", { name: "r" })).id}` }) },
  { name: "list tokens", need: { org: ["apiTokens", "read"] }, setup: async () => ({ method: "GET", path: "/v2/tokens" }) },
  { name: "get token", need: { org: ["apiTokens", "read"] }, setup: async () => ({ method: "GET", path: `/v2/tokens/${(await t.ok("POST", "/v2/tokens", { name: "t" })).id}` }) },
  { name: "create token", need: { org: ["apiTokens", "create"] }, setup: async () => ({ method: "POST", path: "/v2/tokens", body: { name: "t" } }) },
  {
    name: "regenerate token (apiTokens|update)",
    need: { org: ["apiTokens", "update"] },
    setup: async () => ({ method: "POST", path: `/v2/tokens/${(await t.ok("POST", "/v2/tokens", { name: "t" })).id}/regenerate`, body: { existingTokenExpiresAt: "2030-01-01T00:00:00Z" } }),
  },
  { name: "delete token", need: { org: ["apiTokens", "delete"] }, setup: async () => ({ method: "DELETE", path: `/v2/tokens/${(await t.ok("POST", "/v2/tokens", { name: "t" })).id}` }) },
  { name: "list virtual fields", need: { dataset: ["virtualFields", "read"] }, setup: async () => ({ method: "GET", path: `/v2/vfields?dataset=${DS}` }) },
  { name: "get virtual field", need: { dataset: ["virtualFields", "read"] }, setup: async () => ({ method: "GET", path: `/v2/vfields/${await newVfield()}` }) },
  { name: "create virtual field", need: { dataset: ["virtualFields", "create"] }, setup: async () => ({ method: "POST", path: "/v2/vfields", body: { ...vfield, name: `v${unique()}` } }) },
  { name: "update virtual field", need: { dataset: ["virtualFields", "update"] }, setup: async () => ({ method: "PUT", path: `/v2/vfields/${await newVfield()}`, body: { ...vfield, name: `v${unique()}` } }) },
  { name: "delete virtual field", need: { dataset: ["virtualFields", "delete"] }, setup: async () => ({ method: "DELETE", path: `/v2/vfields/${await newVfield()}` }) },
  { name: "list starred queries", need: { dataset: ["starredQueries", "read"] }, setup: async () => ({ method: "GET", path: `/v2/apl-starred-queries?dataset=${DS}` }) },
  { name: "get starred query", need: { dataset: ["starredQueries", "read"] }, setup: async () => ({ method: "GET", path: `/v2/apl-starred-queries/${(await t.ok("POST", "/v2/apl-starred-queries", starred)).id}` }) },
  { name: "create starred query", need: { dataset: ["starredQueries", "create"] }, readsQuery: true, setup: async () => ({ method: "POST", path: "/v2/apl-starred-queries", body: starred }) },
  {
    name: "update starred query",
    need: { dataset: ["starredQueries", "update"] },
    readsQuery: true,
    setup: async () => ({ method: "PUT", path: `/v2/apl-starred-queries/${(await t.ok("POST", "/v2/apl-starred-queries", starred)).id}`, body: starred }),
  },
  { name: "delete starred query", need: { dataset: ["starredQueries", "delete"] }, setup: async () => ({ method: "DELETE", path: `/v2/apl-starred-queries/${(await t.ok("POST", "/v2/apl-starred-queries", starred)).id}` }) },
  { name: "list datasets (any valid token)", need: { none: true }, setup: async () => ({ method: "GET", path: "/v2/datasets" }) },
  { name: "get dataset", need: { org: ["datasets", "read"] }, setup: async () => ({ method: "GET", path: `/v2/datasets/${DS}` }) },
  { name: "create dataset", need: { org: ["datasets", "create"] }, setup: async () => ({ method: "POST", path: "/v2/datasets", body: { name: `ds-${unique()}` } }) },
  { name: "update dataset", need: { org: ["datasets", "update"] }, setup: async () => ({ method: "PUT", path: `/v2/datasets/${DS}`, body: { description: "d" } }) },
  {
    name: "delete dataset",
    need: { org: ["datasets", "delete"] },
    setup: async () => ({ method: "DELETE", path: `/v2/datasets/${(await t.ok("POST", "/v2/datasets", { name: `ds-${unique()}` })).name}` }),
  },
  { name: "list fields (datasets|read)", need: { org: ["datasets", "read"] }, setup: async () => ({ method: "GET", path: `/v2/datasets/${DS}/fields` }) },
  { name: "get field (datasets|read)", need: { org: ["datasets", "read"] }, setup: async () => ({ method: "GET", path: `/v2/datasets/${DS}/fields/n` }) },
  { name: "update field (datasets|update)", need: { org: ["datasets", "update"] }, setup: async () => ({ method: "PUT", path: `/v2/datasets/${DS}/fields/n`, body: { unit: "ms" } }) },
  { name: "ingest", need: { dataset: ["ingest", "create"] }, setup: async () => ({ method: "POST", path: `/v1/datasets/${DS}/ingest`, body: [{ n: 2 }] }) },
  { name: "legacy query", need: { dataset: ["query", "read"] }, setup: async () => ({ method: "POST", path: `/v1/datasets/${DS}/query`, body: {} }) },
  { name: "APL query", need: { dataset: ["query", "read"] }, setup: async () => ({ method: "POST", path: "/v1/datasets/_apl?format=tabular", body: { apl: `['${DS}'] | count` } }) },
  { name: "list users", need: { org: ["users", "read"] }, setup: async () => ({ method: "GET", path: "/v2/users" }) },
  { name: "get user", need: { org: ["users", "read"] }, setup: async () => ({ method: "GET", path: `/v2/users/${(await t.ok("GET", "/v2/user")).id}` }) },
  { name: "create user", need: { org: ["users", "create"] }, setup: async () => ({ method: "POST", path: "/v2/users", body: { email: `${unique()}@example.com`, name: "U", role: "user" } }) },
  {
    name: "change a user's role",
    need: { org: ["users", "update"] },
    setup: async () => ({ method: "PUT", path: `/v2/users/${(await t.ok("POST", "/v2/users", { email: `${unique()}@example.com`, name: "U", role: "user" })).id}/role`, body: { role: "admin" } }),
  },
  {
    name: "delete user",
    need: { org: ["users", "delete"] },
    setup: async () => ({ method: "DELETE", path: `/v2/users/${(await t.ok("POST", "/v2/users", { email: `${unique()}@example.com`, name: "U", role: "user" })).id}` }),
  },
  { name: "get current user (any valid token)", need: { none: true }, setup: async () => ({ method: "GET", path: "/v2/user" }) },
  { name: "rename current user (any valid token)", need: { none: true }, setup: async () => ({ method: "PUT", path: "/v2/user", body: { name: "Me" } }) },
  { name: "list organizations (any valid token)", need: { none: true }, setup: async () => ({ method: "GET", path: "/v2/orgs" }) },
  { name: "get organization (any valid token)", need: { none: true }, setup: async () => ({ method: "GET", path: `/v2/orgs/${t.em.orgId}` }) },
];

describe("auth matrix", () => {
  it.each(ops)("$name", async (op) => {
    const req = await op.setup();
    const send = (token: string | null) => t.call(req.method, req.path, { body: req.body, token });
    const anonymous = await send(null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(401);
    expect((await send("odst_not-a-real-token")).status).toBe(401);
    expect((await send(expired)).status).toBe(401);
    if (!("none" in op.need)) {
      const denied = await send(await tokenWith(t, allBut(op.need)));
      expect(denied.status, JSON.stringify(denied.body)).toBe(403);
      const [key, action] = "org" in op.need ? op.need.org : op.need.dataset;
      expect(denied.body.message).toContain(`${key}|${action}`);
    }
    const allowed = await send(await tokenWith(t, only(op.need, op.readsQuery, onExisting(req))));
    expect(allowed.status, JSON.stringify(allowed.body)).toBeLessThan(300);
  });

  it("the wildcard dataset grant covers every dataset", async () => {
    const token = await tokenWith(t, { datasetCapabilities: { "*": { virtualFields: ["read"] } } });
    expect((await t.call("GET", `/v2/vfields?dataset=${DS}`, { token })).status).toBe(200);
    const named = await tokenWith(t, { datasetCapabilities: { other: { virtualFields: ["read"] } } });
    expect((await t.call("GET", `/v2/vfields?dataset=${DS}`, { token: named })).status).toBe(403);
  });

  it("an APL query over a dataset the token may not read is a 403", async () => {
    await t.ok("POST", "/v2/datasets", { name: "secret-ds" });
    const token = await tokenWith(t, only({ dataset: ["query", "read"] }));
    const reply = await t.call("POST", "/v1/datasets/_apl", { token, body: { apl: "['secret-ds'] | count" } });
    expect(reply.status).toBe(403);
    expect(reply.body.message).toContain("secret-ds");
  });

  it("never echoes the presented secret in a 401", async () => {
    const reply = await t.call("GET", "/v2/user", { token: "odst_leaky-secret-value" });
    expect(JSON.stringify(reply.body)).not.toContain("leaky-secret-value");
  });
});
