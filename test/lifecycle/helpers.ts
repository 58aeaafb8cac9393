// Both engines against one emulator on 127.0.0.1:0: the Terraform adapter called in
// process (no terraform binary), and a forwarding proxy (test/helpers/forward-proxy.ts)
// that can lose the answer of a chosen write, the way a dropped connection does.
import * as path from "node:path";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { resourceKind, type Attributes, type Values } from "../../src/resources";
import { OdsTerraformProvider, type OdsProviderOptions } from "../../src/tfprovider/ods-provider";
import type { TfObject, TfValue } from "../../src/tfprovider/values";
import { applyPlan } from "../../src/reconcile/apply";
import { makePlan } from "../../src/reconcile/plan";
import { loadStack } from "../../src/reconcile/stack";
import { LocalBackend } from "../../src/reconcile/backends";
import { StateStore } from "../../src/reconcile/state";
import { tempDir } from "../emulator/helpers";
import { removeTempDirs, writeStack, type StackSpec } from "../helpers/ods-cli";
import { startForwardProxy, type ForwardProxy } from "../helpers/forward-proxy";
import { afterAll, beforeAll } from "vitest";

export type LossyProxy = ForwardProxy;
export const startLossyProxy = startForwardProxy;

export interface Rig {
  emu: EmulatorHandle;
  admin: OdsClient;
  proxy: LossyProxy;
  close(): Promise<void>;
}

export async function startRig(): Promise<Rig> {
  const emu = await startEmulator({ port: 0, dataDir: tempDir("ods-lifecycle-"), rateLimitPerSecond: 100_000 });
  const admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  const proxy = await startLossyProxy(emu.url);
  return {
    emu,
    admin,
    proxy,
    close: async () => {
      await proxy.close();
      await admin.close();
      await emu.close();
    },
  };
}

/** A configured provider, as Terraform would start it, talking to `url`. */
export function provider(url: string, token: string, options: OdsProviderOptions = {}): OdsTerraformProvider {
  const p = new OdsTerraformProvider(options);
  const diags = p.configure({ config: { url, token, org_id: null, rate_limit_per_second: null, timeout: null } });
  if (diags.length > 0) throw new Error(JSON.stringify(diags));
  return p;
}

/** A protocol object with every attribute of the kind present (null when not given), as Terraform sends it. */
export function tfState(typeName: string, values: Values): TfObject {
  const kind = resourceKind(typeName);
  if (!kind) throw new Error(`unknown type ${typeName}`);
  return fill(kind.attributes, values);
}

function fill(attrs: Attributes, values: Values): TfObject {
  const out: TfObject = {};
  for (const [name, attr] of Object.entries(attrs)) {
    const v = values[name];
    out[name] = attr.type === "object" && v && typeof v === "object" && !Array.isArray(v) ? fill(attr.attributes, v as Values) : ((v ?? null) as TfValue);
  }
  return out;
}

/** Plan then apply one resource change through the provider, as Terraform does. */
export async function tfApply(
  p: OdsTerraformProvider,
  typeName: string,
  prior: TfObject | null,
  config: Values | null,
): Promise<TfObject | null> {
  const proposed = config ? { ...(prior ?? {}), ...tfState(typeName, config) } : null;
  const plan = await p.planResourceChange({ typeName, priorState: prior, proposedNewState: proposed, config: config ? tfState(typeName, config) : null });
  // Warnings (a rotation's note on the old secret, say) do not stop Terraform; errors do.
  if (plan.diagnostics?.some((d) => d.severity === "error")) throw new Error(plan.diagnostics.map((d) => `${d.summary}: ${d.detail ?? ""}`).join("\n"));
  const applied = await p.applyResourceChange({ typeName, priorState: prior, plannedState: plan.plannedState });
  if (applied.diagnostics?.length) throw new Error(applied.diagnostics.map((d) => `${d.summary}: ${d.detail ?? ""}`).join("\n"));
  return applied.newState ?? null;
}

/** One `ods plan` + `ods apply` in process, as the CLI runs them; answers the plan, the summary and the state. */
export async function odsApply(client: OdsClient, dir: string, spec: StackSpec) {
  const stack = loadStack(writeStack(dir, spec));
  const store = new StateStore(new LocalBackend(path.join(dir, "state.json")));
  const state = await store.read();
  const plan = await makePlan({ client, stack, state });
  const summary = await applyPlan({ client, stack, state, persist: (s) => store.write(s), plan });
  return { plan, summary, state: await store.read() };
}

/** Starts a rig before the file's tests and stops it (and removes temp dirs) after them. */
export function useRig(): { readonly rig: Rig } {
  const holder: { rig?: Rig } = {};
  beforeAll(async () => {
    holder.rig = await startRig();
  });
  afterAll(async () => {
    await holder.rig?.close();
    removeTempDirs();
  });
  return {
    get rig(): Rig {
      if (!holder.rig) throw new Error("the rig starts before the tests");
      return holder.rig;
    },
  };
}

export interface TokenAudit {
  /** The managed token expires although the declaration says it never does (it dies unseen). */
  dying: number;
  /** Live tokens of the name that nobody manages and that never expire. */
  unmanaged: number;
  /** Whether the secret the engine recorded works. */
  secretWorks: boolean;
}

/** What a lost rotation may leave behind for a token named `name` that the engine records as `id` with `secret`. */
export async function auditToken(rig: Rig, name: string, id: string | undefined, secret: string | undefined): Promise<TokenAudit> {
  const tokens = (await rig.admin.listTokens()).filter((t) => t.name === name);
  const managed = tokens.find((t) => t.id === id);
  let secretWorks = false;
  if (secret) {
    const as = new OdsClient({ url: rig.emu.url, token: secret, maxRetries: 0 });
    try {
      await as.getCurrentUser();
      secretWorks = true;
    } catch {
      secretWorks = false;
    } finally {
      await as.close();
    }
  }
  return {
    dying: !managed || managed.expiresAt ? 1 : 0,
    unmanaged: tokens.filter((t) => t.id !== id && !t.expiresAt).length,
    secretWorks,
  };
}
