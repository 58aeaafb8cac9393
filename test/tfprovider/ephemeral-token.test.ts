// The ephemeral ods_api_token's rules, through the provider against the emulator over
// HTTP: its lifetime is bounded, renew says the expiry cannot move, a later open sweeps
// leftovers of runs that never closed theirs once they expired, close tolerates a gone token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsApiError, OdsClient } from "../../src/api";
import type { OdsTerraformProvider } from "../../src/tfprovider/ods-provider";
import type { TfObject } from "../../src/tfprovider/values";
import { provider, startRig, type Rig } from "../lifecycle/helpers";

let rig: Rig;
let p: OdsTerraformProvider;

beforeAll(async () => {
  rig = await startRig();
  p = provider(rig.emu.url, rig.emu.adminToken);
});
afterAll(async () => {
  await p?.close();
  await rig?.close();
});

const SCHEMA_ATTRS = ["name", "description", "expires_in", "org_capabilities", "dataset_capabilities", "view_capabilities", "id", "expires_at", "token"];

function config(values: Record<string, unknown>): TfObject {
  const out: TfObject = {};
  for (const k of SCHEMA_ATTRS) out[k] = (values[k] ?? null) as TfObject[string];
  return out;
}

describe("ephemeral ods_api_token", () => {
  it("is in the schema Terraform reads, with a sensitive token", () => {
    const schema = p.schema().ephemeral_resource_schemas?.ods_api_token;
    expect(schema?.block.attributes?.token).toMatchObject({ computed: true, sensitive: true });
    expect(Object.keys(schema?.block.attributes ?? {}).sort()).toEqual([...SCHEMA_ATTRS].sort());
  });

  it("refuses a lifetime beyond 24h or under a minute, naming expires_in", () => {
    for (const expires_in of ["25h", "30s"]) {
      const diags = p.validateEphemeralResourceConfig("ods_api_token", config({ expires_in }));
      expect(diags.map((d) => `${d.detail}`).join("\n")).toMatch(/attribute "expires_in" .*(at most "24h"|at least "1m")/);
    }
  });

  it("opens a working token expiring after expires_in (default 1h), renews by warning, closes by revoking", async () => {
    const before = Date.now();
    const opened = await p.openEphemeralResource({ typeName: "ods_api_token", config: config({ org_capabilities: { notifiers: ["read"] } }) });
    const result = opened.result!;
    expect(String(result.expires_in)).toBe("1h");
    const expiry = Date.parse(String(result.expires_at));
    expect(expiry).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(expiry).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(opened.renewAt!.getTime()).toBe(expiry - 5 * 60_000);
    const live = (await rig.admin.listTokens()).find((t) => t.id === result.id)!;
    expect(live.name).toMatch(/^ephemeral-terraform-[0-9a-f]{8}$/);
    const client = new OdsClient({ url: rig.emu.url, token: String(result.token) });
    try {
      await expect(client.listNotifiers()).resolves.toEqual([]);
      const renewed = p.renewEphemeralResource({ typeName: "ods_api_token", private: opened.private! });
      expect(renewed.renewAt).toBeUndefined();
      expect(renewed.diagnostics?.[0]).toMatchObject({ severity: "warning" });
      expect(renewed.diagnostics?.[0].summary).toContain(String(result.expires_at));
      await p.closeEphemeralResource({ typeName: "ods_api_token", private: opened.private! });
      await expect(client.listNotifiers()).rejects.toSatisfy((e: unknown) => e instanceof OdsApiError && e.status === 401);
      // Closing again (a token already revoked) is not an error.
      await expect(p.closeEphemeralResource({ typeName: "ods_api_token", private: opened.private! })).resolves.toEqual({});
    } finally {
      await client.close();
    }
  });

  it("sweeps expired leftovers of killed runs at the next open, and leaves live ones and other tokens alone", async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    const leftover = await rig.admin.createToken({ name: "ephemeral-ci-deadbeef", expiresAt: soon });
    const otherExpired = await rig.admin.createToken({ name: "deploy-bot", expiresAt: soon });
    const running = await rig.admin.createToken({ name: "ephemeral-ci-cafef00d", expiresAt: new Date(Date.now() + 600_000).toISOString() });
    await new Promise((r) => setTimeout(r, 2000));
    const opened = await p.openEphemeralResource({ typeName: "ods_api_token", config: config({ name: "ci", expires_in: "5m" }) });
    const ids = (await rig.admin.listTokens()).map((t) => t.id);
    expect(ids).not.toContain(leftover.id);
    expect(ids).toContain(otherExpired.id);
    expect(ids).toContain(running.id);
    expect(ids).toContain(opened.result!.id);
    await p.closeEphemeralResource({ typeName: "ods_api_token", private: opened.private! });
  });
});
