// Both engines against one emulator on 127.0.0.1:0: the Terraform adapter called in
// process (no terraform binary), and a forwarding proxy that can lose the answer of a
// chosen write after the emulator applied it, the way a dropped connection does.
import * as http from "node:http";
import * as path from "node:path";
import type { AddressInfo } from "node:net";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { resourceKind, type Attributes, type Values } from "../../src/resources";
import { OdsTerraformProvider } from "../../src/tfprovider/ods-provider";
import type { TfObject, TfValue } from "../../src/tfprovider/values";
import { applyPlan } from "../../src/reconcile/apply";
import { makePlan } from "../../src/reconcile/plan";
import { loadStack } from "../../src/reconcile/stack";
import { readState } from "../../src/reconcile/state";
import { tempDir } from "../emulator/helpers";
import { removeTempDirs, writeStack, type StackSpec } from "../helpers/ods-cli";
import { afterAll, beforeAll } from "vitest";

export interface LossyProxy {
  url: string;
  /**
   * Loses the answer of the next request whose method and path match (after it was
   * applied); `then` runs at that moment (e.g. kills the caller).
   */
  loseNextAnswer(method: string, path: RegExp, then?: () => void): void;
  lost: number;
  close(): Promise<void>;
}

export async function startLossyProxy(target: string): Promise<LossyProxy> {
  let pending: { method: string; path: RegExp; then?: () => void } | undefined;
  const proxy: LossyProxy = {
    url: "",
    lost: 0,
    loseNextAnswer: (method, path, then) => {
      pending = { method, path, then };
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "content-length") headers[k] = v;
      void fetch(target + (req.url ?? ""), { method: req.method, headers, body: body.length > 0 ? body : undefined }).then(async (answer) => {
        const text = Buffer.from(await answer.arrayBuffer());
        if (pending && req.method === pending.method && pending.path.test(req.url ?? "")) {
          const then = pending.then;
          pending = undefined;
          proxy.lost++;
          then?.();
          res.socket?.destroy();
          return;
        }
        const out: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (k !== "content-length" && k !== "transfer-encoding" && k !== "content-encoding" && k !== "connection") out[k] = v;
        });
        res.writeHead(answer.status, out);
        res.end(text);
      }, () => res.socket?.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

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
export function provider(url: string, token: string): OdsTerraformProvider {
  const p = new OdsTerraformProvider();
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
  if (plan.diagnostics?.length) throw new Error(plan.diagnostics.map((d) => `${d.summary}: ${d.detail ?? ""}`).join("\n"));
  const applied = await p.applyResourceChange({ typeName, priorState: prior, plannedState: plan.plannedState });
  if (applied.diagnostics?.length) throw new Error(applied.diagnostics.map((d) => `${d.summary}: ${d.detail ?? ""}`).join("\n"));
  return applied.newState ?? null;
}

/** One `ods plan` + `ods apply` in process, as the CLI runs them; answers the plan, the summary and the state. */
export async function odsApply(client: OdsClient, dir: string, spec: StackSpec) {
  const stack = loadStack(writeStack(dir, spec));
  const stateFile = path.join(dir, "state.json");
  const state = readState(stateFile);
  const plan = await makePlan({ client, stack, state });
  const summary = await applyPlan({ client, stack, state, stateFile, plan });
  return { plan, summary, state: readState(stateFile) };
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
