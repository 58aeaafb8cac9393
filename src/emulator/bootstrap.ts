// First start in an empty data directory: an organization with a realistic license,
// an admin user and an admin token holding every capability. Later starts reuse them;
// when the admin secret is lost (credentials.json deleted, token deleted or expired), a
// new admin token is minted, because the secret itself is never stored.
import { randomBytes } from "node:crypto";
import { isExpired, sha256Hex } from "./auth";
import { allCapabilities } from "./capabilities";
import { newId } from "./core";
import { readCredentials, writeCredentials, type Credentials } from "./data-dir";
import type { EmulatorState, OrgRecord, UserRecord } from "./model";
import { issueToken } from "./routes/tokens";
import type { Store } from "./store";
import { nowIso } from "./time";

export const ADMIN_TOKEN_NAME = "emulator-admin";

function monthStart(now: Date, offset: number): string {
  return nowIso(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
}

function newOrganization(now: number): OrgRecord {
  const id = `emulator-${randomBytes(4).toString("hex")}`;
  const created = nowIso(now);
  const date = new Date(now);
  return {
    id,
    name: "ODS Emulator",
    role: "admin",
    primaryEmail: "admin@emulator.ods.invalid",
    plan: "personal",
    paymentStatus: "na",
    planCreated: created,
    firstFailedPayment: "",
    lastUsageSync: created,
    metaCreated: created,
    metaModified: created,
    metaVersion: "1",
    license: {
      id: newId("lic"),
      issuer: "ods-emulator",
      issuedTo: id,
      tier: "personal",
      issuedAt: created,
      validFrom: created,
      expiresAt: nowIso(Date.UTC(date.getUTCFullYear() + 10, date.getUTCMonth(), 1)),
      billingPeriodStart: monthStart(date, 0),
      billingPeriodEnd: monthStart(date, 1),
      apiRateLimitPerSecond: 100,
      maxAuditWindowSeconds: 90 * 86_400,
      maxDatasets: 1000,
      maxEndpoints: 100,
      maxFields: 1024,
      maxMonitors: 500,
      // The emulator enforces it (license.ts); its own default leaves any window open, since
      // tests and local work query fixed ranges years wide. `--license` sets a real bound.
      maxQueryWindowSeconds: 200 * 365 * 86_400,
      maxUsers: 100,
      monthlyIngestGb: 500,
      monthlyQueryGbHours: 100,
      storageAllowanceGB: 1000,
      features: {},
      withAuths: ["api-token"],
    },
  };
}

export interface BootResult {
  orgId: string;
  credentials: Credentials;
}

export async function bootstrap(store: Store<EmulatorState>, dataDir: string, now: number = Date.now()): Promise<BootResult> {
  const state = store.state;
  const tx = store.tx();
  let org = [...state.orgs.values()][0];
  if (!org) {
    org = newOrganization(now);
    tx.put("orgs", org.id, org);
  }
  const saved = readCredentials(dataDir);
  if (saved && saved.orgId === org.id) {
    const token = state.tokens.get(saved.tokenId);
    if (token && token.secretSha256 === sha256Hex(saved.token) && !isExpired(token, now) && state.users.has(token.userId)) {
      await tx.commit();
      return { orgId: org.id, credentials: saved };
    }
  }
  let admin: UserRecord | undefined = (saved && state.users.get(saved.userId)) || [...state.users.values()].find((u) => u.role === "admin");
  if (!admin) {
    admin = { id: newId("usr"), email: "admin@emulator.ods.invalid", name: "Emulator Admin", role: "admin", created: nowIso(now) };
    tx.put("users", admin.id, admin);
  }
  const { record, secret } = issueToken(
    { name: ADMIN_TOKEN_NAME, description: "Created by the emulator on first start; holds every capability.", expiresAt: "", ...allCapabilities() },
    admin.id,
    now,
  );
  tx.put("tokens", record.id, record);
  await tx.commit();
  const credentials: Credentials = { orgId: org.id, userId: admin.id, tokenId: record.id, token: secret };
  writeCredentials(dataDir, credentials);
  return { orgId: org.id, credentials };
}
