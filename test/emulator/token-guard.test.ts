// apiTokens|update (or |delete) is not a master key: a token may only regenerate or
// delete tokens whose capabilities it holds itself, never mint a token that outlives
// itself, and a regenerate can shorten the old token's life but never lengthen it, so
// an expired token stays expired. (Issue 11, finding 8.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, tokenWith, type TestEmulator } from "./helpers";

const PAST = "2020-01-01T00:00:00Z";
const NO_CAPS = { orgCapabilities: {}, datasetCapabilities: {}, viewCapabilities: {} };

let t: TestEmulator;
let adminId: string;
beforeAll(async () => {
  t = await startTestEmulator();
  const tokens = (await t.ok("GET", "/v2/tokens")) as { id: string; name: string }[];
  adminId = tokens.find((tok) => tok.name === "emulator-admin")!.id;
});
afterAll(() => t.close());

const inAnHour = (): string => new Date(Date.now() + 3_600_000).toISOString();

describe("regenerating a token the caller does not cover", () => {
  it("cannot cut off the admin token with apiTokens|update alone", async () => {
    const weak = await tokenWith(t, { orgCapabilities: { apiTokens: ["update"] } });
    const reply = await t.call("POST", `/v2/tokens/${adminId}/regenerate`, {
      token: weak,
      body: { existingTokenExpiresAt: PAST, newToken: NO_CAPS },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(403);
    expect(reply.body.message).toContain("orgCapabilities.");
    // Nothing changed: the admin token works and has no expiry.
    expect((await t.call("GET", "/v2/users")).status).toBe(200);
    expect((await t.ok("GET", `/v2/tokens/${adminId}`)).expiresAt).toBe("");
  });

  it("cannot delete a stronger token with apiTokens|delete alone", async () => {
    const strong = await t.ok("POST", "/v2/tokens", { name: "strong", orgCapabilities: { users: ["read"] } });
    const weak = await tokenWith(t, { orgCapabilities: { apiTokens: ["delete"] } });
    const reply = await t.call("DELETE", `/v2/tokens/${strong.id}`, { token: weak });
    expect(reply.status).toBe(403);
    expect(reply.body.message).toContain("orgCapabilities.users|read");
    expect((await t.call("GET", "/v2/users", { token: strong.token })).status).toBe(200);
  });

  it("may regenerate and delete tokens it covers", async () => {
    const caller = await tokenWith(t, { orgCapabilities: { apiTokens: ["update", "delete"], users: ["read"] } });
    const covered = await t.ok("POST", "/v2/tokens", { name: "covered", orgCapabilities: { users: ["read"] } });
    const fresh = await t.ok("POST", `/v2/tokens/${covered.id}/regenerate`, { existingTokenExpiresAt: inAnHour() }, caller);
    expect(fresh.orgCapabilities).toEqual({ users: ["read"] });
    expect((await t.call("DELETE", `/v2/tokens/${fresh.id}`, { token: caller })).status).toBe(204);
  });
});

describe("expiry only ever shortens", () => {
  it("an expired token stays expired after a regenerate that names a later expiry", async () => {
    const expired = await t.ok("POST", "/v2/tokens", { name: "dead", expiresAt: PAST, orgCapabilities: { users: ["read"] } });
    expect((await t.call("GET", "/v2/users", { token: expired.token })).status).toBe(401);
    const fresh = await t.ok("POST", `/v2/tokens/${expired.id}/regenerate`, { existingTokenExpiresAt: "2099-01-01T00:00:00Z", newTokenExpiresAt: inAnHour() });
    expect((await t.call("GET", "/v2/users", { token: expired.token })).status).toBe(401);
    expect(Date.parse((await t.ok("GET", `/v2/tokens/${expired.id}`)).expiresAt)).toBe(Date.parse(PAST));
    expect((await t.call("GET", "/v2/users", { token: fresh.token })).status).toBe(200);
  });

  it("a regenerate keeps the old token's earlier expiry rather than extending it", async () => {
    const soon = new Date(Date.now() + 600_000).toISOString();
    const old = await t.ok("POST", "/v2/tokens", { name: "short", expiresAt: soon });
    await t.ok("POST", `/v2/tokens/${old.id}/regenerate`, { existingTokenExpiresAt: "2099-01-01T00:00:00Z" });
    expect(Date.parse((await t.ok("GET", `/v2/tokens/${old.id}`)).expiresAt)).toBe(Date.parse(soon));
  });

  it("a token cannot create or regenerate a token that outlives itself", async () => {
    const until = inAnHour();
    const caller = await tokenWith(t, { orgCapabilities: { apiTokens: ["create", "update"] } }, { expiresAt: until });
    const forever = await t.call("POST", "/v2/tokens", { token: caller, body: { name: "forever" } });
    expect(forever.status, JSON.stringify(forever.body)).toBe(403);
    expect(forever.body.message).toContain("expiresAt");
    const later = await t.call("POST", "/v2/tokens", { token: caller, body: { name: "later", expiresAt: "2099-01-01T00:00:00Z" } });
    expect(later.status).toBe(403);
    const within = await t.call("POST", "/v2/tokens", { token: caller, body: { name: "within", expiresAt: until } });
    expect(within.status, JSON.stringify(within.body)).toBe(200);

    const neverExpiring = await t.ok("POST", "/v2/tokens", { name: "plain" });
    const regen = await t.call("POST", `/v2/tokens/${neverExpiring.id}/regenerate`, {
      token: caller,
      body: { existingTokenExpiresAt: new Date(Date.now() + 60_000).toISOString() },
    });
    // The new token would inherit "never expires": longer than the caller's own life.
    expect(regen.status, JSON.stringify(regen.body)).toBe(403);
    expect((await t.ok("GET", `/v2/tokens/${neverExpiring.id}`)).expiresAt).toBe("");
  });
});
