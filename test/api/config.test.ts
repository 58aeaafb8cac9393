// Client settings: options over the environment, defaults, and errors that name the
// setting without echoing what was given.
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULTS, OdsClient, OdsConfigError, resolveClientConfig } from "../../src/api";
import { json, startStub, type StubServer } from "./helpers";

const TOKEN = "xapt-config-test-5e1b9c";

function configError(fn: () => unknown): OdsConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(OdsConfigError);
    return err as OdsConfigError;
  }
  throw new Error("expected an OdsConfigError");
}

describe("resolveClientConfig", () => {
  it("takes url, token and org id from the environment, with defaults for the rest", () => {
    const c = resolveClientConfig({}, { ODS_URL: "http://ods.example:8080/", ODS_TOKEN: TOKEN, ODS_ORG_ID: "org-1" });
    expect(c.url).toBe("http://ods.example:8080");
    expect(c.token).toBe(TOKEN);
    expect(c.orgId).toBe("org-1");
    expect(c.timeoutMs).toBe(DEFAULTS.timeoutMs);
    expect(c.maxRetries).toBe(DEFAULTS.maxRetries);
    expect(c.maxRetryWaitMs).toBe(DEFAULTS.maxRetryWaitMs);
    expect(c.userAgent).toBe(DEFAULTS.userAgent);
    expect(c.rateLimitPerSecond).toBeUndefined();
  });

  it("prefers explicit options over the environment", () => {
    const c = resolveClientConfig(
      { url: "https://a.example", token: "opt-token", orgId: "org-opt", rateLimitPerSecond: 4, timeoutMs: 500, maxRetries: 0, maxRetryWaitMs: 0 },
      { ODS_URL: "http://b.example", ODS_TOKEN: "env-token", ODS_ORG_ID: "org-env" },
    );
    expect(c).toMatchObject({ url: "https://a.example", token: "opt-token", orgId: "org-opt", rateLimitPerSecond: 4, timeoutMs: 500, maxRetries: 0, maxRetryWaitMs: 0 });
  });

  it("names the missing URL", () => {
    const err = configError(() => resolveClientConfig({}, { ODS_TOKEN: TOKEN }));
    expect(err.setting).toBe("ODS_URL");
    expect(err.message).toContain("ODS_URL");
  });

  it("names the missing token", () => {
    const err = configError(() => resolveClientConfig({ url: "http://127.0.0.1:1" }, {}));
    expect(err.setting).toBe("ODS_TOKEN");
    expect(err.message).toContain("ODS_TOKEN");
  });

  it("never echoes a token put where the URL belongs, nor URL credentials", () => {
    const notAUrl = configError(() => resolveClientConfig({}, { ODS_URL: TOKEN, ODS_TOKEN: "x" }));
    expect(notAUrl.setting).toBe("ODS_URL");
    expect(`${notAUrl.message} ${notAUrl.stack}`).not.toContain(TOKEN);
    const withCreds = configError(() => resolveClientConfig({ url: `https://user:${TOKEN}@ods.example`, token: "x" }, {}));
    expect(withCreds.message).toMatch(/credentials/);
    expect(`${withCreds.message} ${withCreds.stack}`).not.toContain(TOKEN);
  });

  it("rejects a token with whitespace without echoing it", () => {
    const err = configError(() => resolveClientConfig({ url: "http://127.0.0.1:1", token: `Bearer ${TOKEN}` }, {}));
    expect(err.setting).toBe("ODS_TOKEN");
    expect(err.message).not.toContain(TOKEN);
  });

  it("rejects nonsense numbers, naming the option", () => {
    const base = { url: "http://127.0.0.1:1", token: TOKEN };
    expect(configError(() => resolveClientConfig({ ...base, timeoutMs: 0 }, {})).setting).toBe("timeoutMs");
    expect(configError(() => resolveClientConfig({ ...base, maxRetries: 1.5 }, {})).setting).toBe("maxRetries");
    expect(configError(() => resolveClientConfig({ ...base, rateLimitPerSecond: -1 }, {})).setting).toBe("rateLimitPerSecond");
  });
});

describe("organization header", () => {
  let stub: StubServer | undefined;
  const saved = process.env.ODS_ORG_ID;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
    if (saved === undefined) delete process.env.ODS_ORG_ID;
    else process.env.ODS_ORG_ID = saved;
  });

  it("sends X-ODS-Org-ID and the bearer token when an org id is set, and no org header otherwise", async () => {
    stub = await startStub((_req, res) => json(res, 200, { id: "u1", email: "a@b.c", name: "A", role: { id: "r", name: "admin" } }));
    const withOrg = new OdsClient({ url: stub.url, token: TOKEN, orgId: "org-7" });
    await withOrg.getCurrentUser();
    await withOrg.close();
    // A config resolved with an empty environment stays without an org, whatever process.env says.
    process.env.ODS_ORG_ID = "org-from-env";
    const withoutOrg = new OdsClient(resolveClientConfig({ url: stub.url, token: TOKEN }, {}));
    await withoutOrg.getCurrentUser();
    await withoutOrg.close();
    expect(stub.seen[0].headers["x-ods-org-id"]).toBe("org-7");
    expect(stub.seen[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(stub.seen[1].headers["x-ods-org-id"]).toBeUndefined();
  });
});
