// Every rejection a client can trip on: 400 naming the field, 404 naming the kind and
// id, 409 on duplicates, 413 on oversized bodies; always a {code, message} body.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "./helpers";

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
  await t.ok("POST", "/v2/datasets", { name: "val" });
  await t.ok("POST", "/v1/datasets/val/ingest", [{ count: 1 }]);
});
afterAll(() => t.close());

const channel = { webhook: { url: "https://ok.example.com" } };
const starred = { dataset: "val", kind: "apl", name: "q", query: { apl: "['val']" }, metadata: {} };

interface Case {
  what: string;
  method: string;
  path: string;
  body: unknown;
  /** Text the error message must contain (the field's name). */
  names: string;
}

const badRequests: Case[] = [
  { what: "notifier without name", method: "POST", path: "/v2/notifiers", body: { properties: channel }, names: '"name"' },
  { what: "notifier name of the wrong type", method: "POST", path: "/v2/notifiers", body: { name: 5, properties: channel }, names: '"name"' },
  { what: "notifier without properties", method: "POST", path: "/v2/notifiers", body: { name: "n" }, names: '"properties"' },
  { what: "notifier without a channel", method: "POST", path: "/v2/notifiers", body: { name: "n", properties: {} }, names: '"properties"' },
  { what: "unknown channel", method: "POST", path: "/v2/notifiers", body: { name: "n", properties: { pager: {} } }, names: "properties.pager" },
  { what: "malformed e-mail", method: "POST", path: "/v2/notifiers", body: { name: "n", properties: { email: { emails: ["nope"] } } }, names: "properties.email.emails[0]" },
  { what: "non-http webhook url", method: "POST", path: "/v2/notifiers", body: { name: "n", properties: { webhook: { url: "ftp://x.example.com" } } }, names: "properties.webhook.url" },
  { what: "non-http chat url", method: "POST", path: "/v2/notifiers", body: { name: "n", properties: { chatA: { chatAUrl: "not a url" } } }, names: "properties.chatA.chatAUrl" },
  { what: "malformed disabledUntil", method: "POST", path: "/v2/notifiers", body: { name: "n", properties: channel, disabledUntil: "tomorrow" }, names: '"disabledUntil"' },
  { what: "isEU not a boolean", method: "POST", path: "/v2/notifiers", body: { name: "n", properties: { incidentA: { apiKey: "k", isEU: "yes" } } }, names: "properties.incidentA.isEU" },
  { what: "role without name", method: "POST", path: "/v2/rbac/roles", body: {}, names: '"name"' },
  { what: "unknown org capability", method: "POST", path: "/v2/rbac/roles", body: { name: "r", orgCapabilities: { spaceships: ["read"] } }, names: "orgCapabilities.spaceships" },
  { what: "unknown org action", method: "POST", path: "/v2/rbac/roles", body: { name: "r", orgCapabilities: { auditLog: ["delete"] } }, names: "orgCapabilities.auditLog" },
  { what: "unknown dataset capability", method: "POST", path: "/v2/rbac/roles", body: { name: "r", datasetCapabilities: { val: { fly: ["create"] } } }, names: "datasetCapabilities.val.fly" },
  { what: "unknown dataset action", method: "POST", path: "/v2/rbac/roles", body: { name: "r", datasetCapabilities: { val: { ingest: ["read"] } } }, names: "datasetCapabilities.val.ingest" },
  { what: "role keyed by an unresolved reference", method: "POST", path: "/v2/rbac/roles", body: { name: "r", datasetCapabilities: { "${ods_dataset.logs.name}": { query: ["read"] } } }, names: '"${ods_dataset.logs.name}"' },
  { what: "token keyed by a name no dataset can have", method: "POST", path: "/v2/tokens", body: { name: "t", datasetCapabilities: { "a/b": { query: ["read"] } } }, names: '"a/b"' },
  { what: "view grant keyed by an unresolved reference", method: "POST", path: "/v2/rbac/roles", body: { name: "r", viewCapabilities: { "${var.v}": { query: ["read"] } } }, names: '"${var.v}"' },
  { what: "unknown view action", method: "POST", path: "/v2/rbac/roles", body: { name: "r", viewCapabilities: { v: { query: ["create"] } } }, names: "viewCapabilities.v.query" },
  { what: "token without name", method: "POST", path: "/v2/tokens", body: {}, names: '"name"' },
  { what: "malformed expiresAt", method: "POST", path: "/v2/tokens", body: { name: "t", expiresAt: "2027-13-01T00:00:00Z" }, names: '"expiresAt"' },
  { what: "token with unknown capability", method: "POST", path: "/v2/tokens", body: { name: "t", orgCapabilities: { notifiers: ["explode"] } }, names: "orgCapabilities.notifiers" },
  { what: "virtual field without dataset", method: "POST", path: "/v2/vfields", body: { name: "v", expression: "1" }, names: '"dataset"' },
  { what: "virtual field without name", method: "POST", path: "/v2/vfields", body: { dataset: "val", expression: "1" }, names: '"name"' },
  { what: "virtual field without expression", method: "POST", path: "/v2/vfields", body: { dataset: "val", name: "v" }, names: '"expression"' },
  { what: "starred query without kind", method: "POST", path: "/v2/apl-starred-queries", body: { ...starred, kind: undefined }, names: '"kind"' },
  { what: "starred query without name", method: "POST", path: "/v2/apl-starred-queries", body: { ...starred, name: undefined }, names: '"name"' },
  { what: "starred query without query", method: "POST", path: "/v2/apl-starred-queries", body: { ...starred, query: undefined }, names: '"query"' },
  { what: "starred query without apl", method: "POST", path: "/v2/apl-starred-queries", body: { ...starred, query: {} }, names: '"query.apl"' },
  { what: "starred query without metadata", method: "POST", path: "/v2/apl-starred-queries", body: { ...starred, metadata: undefined }, names: '"metadata"' },
  { what: "dataset without name", method: "POST", path: "/v2/datasets", body: {}, names: '"name"' },
  { what: "dataset name with a slash", method: "POST", path: "/v2/datasets", body: { name: "a/b" }, names: '"name"' },
  { what: "user without email", method: "POST", path: "/v2/users", body: { name: "U", role: "user" }, names: '"email"' },
  { what: "user with malformed email", method: "POST", path: "/v2/users", body: { email: "x@", name: "U", role: "user" }, names: '"email"' },
  { what: "user without name", method: "POST", path: "/v2/users", body: { email: "u@example.com", role: "user" }, names: '"name"' },
  { what: "user without role", method: "POST", path: "/v2/users", body: { email: "u@example.com", name: "U" }, names: '"role"' },
  { what: "user with unknown role", method: "POST", path: "/v2/users", body: { email: "u@example.com", name: "U", role: "overlord" }, names: '"role"' },
  { what: "field type change", method: "PUT", path: "/v2/datasets/val/fields/count", body: { type: "string" }, names: '"type"' },
  { what: "current user without name", method: "PUT", path: "/v2/user", body: {}, names: '"name"' },
  { what: "APL without apl", method: "POST", path: "/v1/datasets/_apl", body: {}, names: '"apl"' },
  { what: "APL with unknown format", method: "POST", path: "/v1/datasets/_apl?format=csv", body: { apl: "['val']" }, names: '"format"' },
  { what: "ingest of a non-array", method: "POST", path: "/v1/datasets/val/ingest", body: { a: 1 }, names: "JSON array" },
];

describe("400 names the field", () => {
  it.each(badRequests)("$what", async ({ method, path, body, names }) => {
    const reply = await t.call(method, path, { body });
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body).toEqual({ code: 400, message: expect.stringContaining(names) });
  });

  it("rejects malformed timestamps on regenerate", async () => {
    const token = await t.ok("POST", "/v2/tokens", { name: "r" });
    for (const body of [{}, { existingTokenExpiresAt: "soon" }, { existingTokenExpiresAt: "2030-01-01T00:00:00Z", newTokenExpiresAt: "2030-02-30T00:00:00Z" }]) {
      const reply = await t.call("POST", `/v2/tokens/${token.id}/regenerate`, { body });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toMatch(/existingTokenExpiresAt|newTokenExpiresAt/);
    }
  });

  it("rejects a regenerate whose newToken asks for an unknown capability", async () => {
    const token = await t.ok("POST", "/v2/tokens", { name: "r" });
    const reply = await t.call("POST", `/v2/tokens/${token.id}/regenerate`, {
      body: { existingTokenExpiresAt: "2030-01-01T00:00:00Z", newToken: { orgCapabilities: { notifiers: ["fly"] } } },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain("orgCapabilities.notifiers");
  });

  it("answers 400 for malformed JSON and for a body that is not an object", async () => {
    const malformed = await t.call("POST", "/v2/notifiers", { raw: "{not json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ code: 400, message: expect.stringContaining("JSON") });
    const array = await t.call("POST", "/v2/notifiers", { body: [1, 2] });
    expect(array.status).toBe(400);
  });

  it("rejects starred-query paging outside 1..1000", async () => {
    for (const q of ["limit=0", "limit=1001", "limit=abc", "offset=-1"]) {
      const reply = await t.call("GET", `/v2/apl-starred-queries?${q}`);
      expect(reply.status, q).toBe(400);
      expect(reply.body.message).toContain(q.split("=")[0]);
    }
    expect((await t.call("GET", "/v2/apl-starred-queries?limit=1000")).status).toBe(200);
  });
});

describe("404 names the kind and the id", () => {
  const cases: [string, string][] = [
    ["GET", "/v2/notifiers/ntf_missing"],
    ["PUT", "/v2/notifiers/ntf_missing"],
    ["DELETE", "/v2/notifiers/ntf_missing"],
    ["GET", "/v2/rbac/roles/rol_missing"],
    ["DELETE", "/v2/rbac/roles/rol_missing"],
    ["GET", "/v2/tokens/tok_missing"],
    ["POST", "/v2/tokens/tok_missing/regenerate"],
    ["GET", "/v2/vfields/vfd_missing"],
    ["GET", "/v2/apl-starred-queries/sq_missing"],
    ["GET", "/v2/datasets/ds_missing"],
    ["GET", "/v2/datasets/ds_missing/fields"],
    ["GET", "/v2/datasets/val/fields/fld_missing"],
    ["GET", "/v2/users/usr_missing"],
    ["PUT", "/v2/users/usr_missing/role"],
    ["GET", "/v2/orgs/org_missing"],
    ["POST", "/v1/datasets/ds_missing/ingest"],
    ["POST", "/v1/datasets/ds_missing/query"],
  ];
  it.each(cases)("%s %s", async (method, path) => {
    const reply = await t.call(method, path, { body: method === "GET" || method === "DELETE" ? undefined : {} });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe(404);
    expect(reply.body.message).toContain(path.split("/").find((p) => p.endsWith("_missing")));
  });

  it("a virtual field on an unknown dataset is a 404 naming the dataset", async () => {
    const reply = await t.call("POST", "/v2/vfields", { body: { dataset: "ghost", name: "v", expression: "1" } });
    expect(reply.status).toBe(404);
    expect(reply.body.message).toContain("ghost");
  });

  it("an unknown endpoint is a 404 with the error body", async () => {
    const reply = await t.call("GET", "/v2/spaceships");
    expect(reply).toMatchObject({ status: 404, body: { code: 404 } });
  });
});

describe("409 on duplicates", () => {
  it("duplicate dataset name", async () => {
    const reply = await t.call("POST", "/v2/datasets", { body: { name: "val" } });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ code: 409, message: expect.stringContaining("val") });
  });

  it("duplicate virtual field name within a dataset, also by rename", async () => {
    await t.ok("POST", "/v2/datasets", { name: "val2" });
    await t.ok("POST", "/v2/vfields", { dataset: "val", name: "dup", expression: "1" });
    expect((await t.call("POST", "/v2/vfields", { body: { dataset: "val", name: "dup", expression: "2" } })).status).toBe(409);
    // The same name in another dataset is fine.
    const other = await t.ok("POST", "/v2/vfields", { dataset: "val2", name: "dup", expression: "1" });
    const second = await t.ok("POST", "/v2/vfields", { dataset: "val", name: "other", expression: "1" });
    expect((await t.call("PUT", `/v2/vfields/${second.id}`, { body: { dataset: "val", name: "dup", expression: "1" } })).status).toBe(409);
    expect(other.id).not.toBe(second.id);
  });

  it("duplicate user e-mail, whatever its case", async () => {
    await t.ok("POST", "/v2/users", { email: "dup@example.com", name: "A", role: "user" });
    const reply = await t.call("POST", "/v2/users", { body: { email: "DUP@example.com", name: "B", role: "user" } });
    expect(reply.status).toBe(409);
  });
});

describe("413 on oversized bodies", () => {
  it("over 1 MiB on a regular endpoint", async () => {
    const reply = await t.call("POST", "/v2/notifiers", { body: { name: "x".repeat(1024 * 1024 + 10), properties: channel } });
    expect(reply.status).toBe(413);
    expect(reply.body.code).toBe(413);
  });

  it("ingest takes up to 10 MiB, and 413 above", async () => {
    const event = { pad: "y".repeat(1000) };
    const fourMiB = JSON.stringify(Array.from({ length: 4000 }, () => event));
    const accepted = await t.call("POST", "/v1/datasets/val/ingest", { raw: fourMiB });
    expect(accepted.status).toBe(200);
    expect(accepted.body.ingested).toBe(4000);
    const elevenMiB = JSON.stringify(Array.from({ length: 11_000 }, () => event));
    expect((await t.call("POST", "/v1/datasets/val/ingest", { raw: elevenMiB })).status).toBe(413);
  });
});
