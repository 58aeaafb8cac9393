// The plugin server over real gRPC on a unix socket with mutual TLS, driven by a
// grpc-js client that plays Terraform's part; and the provider process's handshake.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Client, credentials, makeGenericClientConstructor, type ServiceDefinition } from "@grpc/grpc-js";
import { decode, encode, ExtData } from "@msgpack/msgpack";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSelfSignedCertificate, type SelfSignedCertificate } from "../../src/tfprovider/protocol/certificate";
import { loadProtocolServices } from "../../src/tfprovider/protocol/definitions";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../src/tfprovider/protocol/handshake";
import { createLogger } from "../../src/tfprovider/protocol/log";
import type { ProviderImpl } from "../../src/tfprovider/provider-impl";
import { type RunningProviderServer, startProviderServer } from "../../src/tfprovider/provider-server";
import { UNKNOWN } from "../../src/tfprovider/values";
import { thingProvider } from "./fixtures/thing-provider";

type Msg = Record<string, unknown>;
const LAUNCHER = path.join(__dirname, "fixtures", "launch-thing-provider.js");
const services = loadProtocolServices();
const quiet = createLogger("error", () => undefined);

function client(service: ServiceDefinition, target: string, serverCertPem: string | null, clientCert: SelfSignedCertificate | null): Client {
  const Ctor = makeGenericClientConstructor(service, "svc");
  const creds =
    serverCertPem && clientCert
      ? credentials.createSsl(Buffer.from(serverCertPem), Buffer.from(clientCert.keyPem), Buffer.from(clientCert.certPem))
      : credentials.createInsecure();
  return new Ctor(target, creds);
}

function call(c: Client, method: string, request: Msg = {}): Promise<Msg> {
  return new Promise((resolve, reject) => {
    const fn = (c as unknown as Record<string, (req: Msg, opts: { deadline: number }, cb: (e: Error | null, r: Msg) => void) => void>)[method];
    fn.call(c, request, { deadline: Date.now() + 10_000 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

const mp = (v: unknown) => ({ msgpack: Buffer.from(encode(v)) });
const unmp = (dv: unknown) => decode((dv as { msgpack: Buffer }).msgpack) as Msg;

function thingConfig(values: Msg): Msg {
  const all: Msg = { id: null, name: null, secret: null, zone: null, size: null, tags: null, ports: null, revision: null, settings: null, rule: [] };
  return { ...all, ...values };
}

describe("provider server over gRPC with mutual TLS", () => {
  let tmp: string;
  let terraformCert: SelfSignedCertificate;
  let server: RunningProviderServer;
  let provider: Client;
  let impl: ProviderImpl;
  let stopRequests = 0;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tfp-server-test-"));
    terraformCert = createSelfSignedCertificate();
    const base = thingProvider();
    impl = {
      ...base,
      async applyResourceChange(req) {
        if (req.plannedState?.name === "explode") throw new Error("remote service said no");
        if (req.plannedState?.name === "half-known") return { newState: { ...req.plannedState, id: "x", revision: UNKNOWN } };
        return base.applyResourceChange(req);
      },
      // "as-sent": answer the very objects Terraform sent, meaning "unchanged".
      async readResource(req) {
        return req.currentState.name === "as-sent" ? { newState: req.currentState } : base.readResource(req);
      },
      async planResourceChange(req) {
        return req.proposedNewState?.name === "as-sent" ? { plannedState: req.proposedNewState } : base.planResourceChange(req);
      },
      stop() {
        stopRequests++;
      },
    };
    server = await startProviderServer(() => impl, { clientCertPem: terraformCert.certPem, socketDir: tmp, logger: quiet });
    provider = client(services.provider, `unix:${server.listen.address}`, server.certPem, terraformCert);
    const configured = await call(provider, "ConfigureProvider", {
      terraform_version: "1.11.4",
      config: mp({ store_file: path.join(tmp, "things.json"), id_prefix: "t-" }),
      client_capabilities: { write_only_attributes_allowed: true },
    });
    expect(configured.diagnostics).toEqual([]);
  });

  afterAll(async () => {
    provider?.close();
    await server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("announces itself with one handshake line carrying the unpadded DER certificate", () => {
    const parts = server.handshakeLine.split("|");
    expect(parts.slice(0, 3)).toEqual(["1", "6", "unix"]);
    expect(parts[3]).toBe(server.listen.address);
    expect(parts[4]).toBe("grpc");
    expect(parts[5]).not.toMatch(/=/);
    const pemBody = (server.certPem ?? "").replace(/-----[A-Z ]+-----|\s/g, "");
    expect(Buffer.from(parts[5], "base64")).toEqual(Buffer.from(pemBody, "base64"));
    expect(fs.statSync(server.listen.address).isSocket()).toBe(true);
  });

  it("serves the schema with plan_destroy", async () => {
    const res = await call(provider, "GetProviderSchema");
    expect(Object.keys(res.resource_schemas as Msg)).toEqual(["tfp_thing"]);
    expect(Object.keys(res.data_source_schemas as Msg)).toEqual(["tfp_thing_lookup"]);
    // Terraform may skip GetProviderSchema in later starts of the same command.
    expect(res.server_capabilities).toMatchObject({ plan_destroy: true, get_provider_schema_optional: true });
    const meta = await call(provider, "GetMetadata");
    expect(meta.resources).toEqual([{ type_name: "tfp_thing" }]);
  });

  it("plans, applies, reads and plans a replacement through the implementation", async () => {
    const config = thingConfig({ name: "alpha", zone: "z1" });
    const plan = await call(provider, "PlanResourceChange", { type_name: "tfp_thing", prior_state: mp(null), proposed_new_state: mp(config), config: mp(config) });
    expect(plan.diagnostics).toEqual([]);
    const planned = unmp(plan.planned_state);
    expect(planned.id).toBeInstanceOf(ExtData);
    expect(planned.revision).toBe(1);

    const apply = await call(provider, "ApplyResourceChange", { type_name: "tfp_thing", prior_state: mp(null), planned_state: plan.planned_state, config: mp(config) });
    expect(apply.diagnostics).toEqual([]);
    const created = unmp(apply.new_state);
    expect(created).toMatchObject({ name: "alpha", zone: "z1", revision: 1 });
    expect(String(created.id)).toMatch(/^t-/);

    const read = await call(provider, "ReadResource", { type_name: "tfp_thing", current_state: apply.new_state });
    expect(unmp(read.new_state)).toEqual(created);

    const moved = { ...created, zone: "z2" };
    const replan = await call(provider, "PlanResourceChange", { type_name: "tfp_thing", prior_state: apply.new_state, proposed_new_state: mp(moved), config: mp({ ...moved, id: null, revision: null }) });
    expect(replan.requires_replace).toEqual([{ steps: [{ attribute_name: "zone", selector: "attribute_name" }] }]);
  });

  it("answers an unchanged refresh or plan with the bytes Terraform sent, not a re-encoding", async () => {
    // Integers written as floats: an encoding of our own would write them as integers.
    const asSent = { msgpack: Buffer.from(encode(thingConfig({ id: "t-same", name: "as-sent", revision: 3, size: 2 }), { forceIntegerToFloat: true })) };
    const read = await call(provider, "ReadResource", { type_name: "tfp_thing", current_state: asSent });
    expect(Buffer.from((read.new_state as { msgpack: Buffer }).msgpack)).toEqual(asSent.msgpack);
    const plan = await call(provider, "PlanResourceChange", { type_name: "tfp_thing", prior_state: asSent, proposed_new_state: asSent, config: asSent });
    expect(Buffer.from((plan.planned_state as { msgpack: Buffer }).msgpack)).toEqual(asSent.msgpack);
    // Told apart from what the server itself writes for the same values.
    expect(Buffer.from(encode(thingConfig({ id: "t-same", name: "as-sent", revision: 3, size: 2 })))).not.toEqual(asSent.msgpack);
  });

  it("keeps the prior state and reports the error when apply fails", async () => {
    const prior = thingConfig({ id: "t-keep", name: "before", revision: 3 });
    const planned = { ...prior, name: "explode" };
    const res = await call(provider, "ApplyResourceChange", { type_name: "tfp_thing", prior_state: mp(prior), planned_state: mp(planned), config: mp(planned) });
    expect(res.diagnostics).toEqual([expect.objectContaining({ severity: "ERROR", summary: "ApplyResourceChange failed", detail: "remote service said no" })]);
    expect(unmp(res.new_state)).toEqual(prior);
  });

  it("refuses to store an unknown value, pointing at the attribute", async () => {
    const config = thingConfig({ name: "half-known" });
    const planned = { ...config, revision: new ExtData(0, new Uint8Array([0])) };
    const res = await call(provider, "ApplyResourceChange", { type_name: "tfp_thing", prior_state: mp(null), planned_state: mp(planned), config: mp(config) });
    expect(res.diagnostics).toEqual([
      expect.objectContaining({ severity: "ERROR", summary: "Provider returned an unknown value", attribute: { steps: [{ attribute_name: "revision", selector: "attribute_name" }] } }),
    ]);
  });

  it("answers an unknown resource type with a diagnostic, not a crash", async () => {
    const res = await call(provider, "ValidateResourceConfig", { type_name: "tfp_nope", config: mp({}) });
    expect(res.diagnostics).toEqual([expect.objectContaining({ severity: "ERROR", summary: 'Unknown resource type "tfp_nope"' })]);
  });

  it("passes the implementation's diagnostics through with their attribute path", async () => {
    const res = await call(provider, "ValidateResourceConfig", { type_name: "tfp_thing", config: mp(thingConfig({ name: "  " })) });
    expect(res.diagnostics).toEqual([
      expect.objectContaining({ severity: "ERROR", summary: "name must not be blank", detail: "Give the thing a name.", attribute: { steps: [{ attribute_name: "name", selector: "attribute_name" }] } }),
    ]);
  });

  it("upgrades stored JSON state to the current schema", async () => {
    const json = Buffer.from(JSON.stringify({ id: "t-1", name: "old", size: "3", removed_attr: true }));
    const res = await call(provider, "UpgradeResourceState", { type_name: "tfp_thing", version: 0, raw_state: { json } });
    expect(res.diagnostics).toEqual([]);
    expect(unmp(res.upgraded_state)).toEqual(thingConfig({ id: "t-1", name: "old", size: 3, rule: null }));
    const newer = await call(provider, "UpgradeResourceState", { type_name: "tfp_thing", version: 9, raw_state: { json } });
    expect(newer.diagnostics).toEqual([expect.objectContaining({ summary: "State written by a newer provider" })]);
  });

  it("imports by id and reads the data source", async () => {
    const config = thingConfig({ name: "gamma", zone: "z9" });
    const plan = await call(provider, "PlanResourceChange", { type_name: "tfp_thing", prior_state: mp(null), proposed_new_state: mp(config), config: mp(config) });
    const created = unmp((await call(provider, "ApplyResourceChange", { type_name: "tfp_thing", prior_state: mp(null), planned_state: plan.planned_state, config: mp(config) })).new_state);

    const imported = await call(provider, "ImportResourceState", { type_name: "tfp_thing", id: created.id });
    expect(imported.imported_resources).toEqual([expect.objectContaining({ type_name: "tfp_thing" })]);
    const stub = unmp((imported.imported_resources as Msg[])[0].state);
    expect(stub).toEqual(thingConfig({ id: created.id, rule: null }));
    const missing = await call(provider, "ImportResourceState", { type_name: "tfp_thing", id: "t-none" });
    expect(missing.diagnostics).toEqual([expect.objectContaining({ summary: "Cannot import" })]);

    const lookup = await call(provider, "ReadDataSource", { type_name: "tfp_thing_lookup", config: mp({ name: "gamma", id: null, zone: null }) });
    expect(unmp(lookup.state)).toEqual({ name: "gamma", id: created.id, zone: "z9" });
  });

  it("forwards StopProvider to the implementation", async () => {
    const res = await call(provider, "StopProvider");
    expect(res.Error).toBe("");
    expect(stopRequests).toBe(1);
  });

  it("rejects a client that does not present Terraform's certificate", async () => {
    const stranger = client(services.provider, `unix:${server.listen.address}`, server.certPem, createSelfSignedCertificate());
    await expect(call(stranger, "GetProviderSchema")).rejects.toThrow();
    stranger.close();
  });

  it("stops on Shutdown and removes its socket", async () => {
    const other = await startProviderServer(thingProvider, { clientCertPem: null, socketDir: tmp, logger: quiet });
    expect(other.handshakeLine.endsWith("|grpc|")).toBe(true); // no TLS, no certificate
    const controller = client(services.controller, `unix:${other.listen.address}`, null, null);
    await call(controller, "Shutdown");
    await other.done;
    controller.close();
    expect(fs.existsSync(other.listen.address)).toBe(false);
  });
});

describe("provider process start-up", () => {
  const children: ReturnType<typeof spawn>[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
  });

  function run(env: NodeJS.ProcessEnv) {
    const child = spawn(process.execPath, [LAUNCHER], { env: { PATH: process.env.PATH, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    return { child, exited, out: () => stdout, err: () => stderr };
  }

  it("tells a human it is a plugin and exits 1 when run without Terraform's cookie", async () => {
    const p = run({});
    expect(await p.exited).toBe(1);
    expect(p.out()).toBe("");
    expect(p.err()).toMatch(/plugin for Terraform/);
  });

  it("refuses a Terraform that does not offer protocol 6", async () => {
    const p = run({ [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "4,5" });
    expect(await p.exited).toBe(1);
    expect(p.err()).toMatch(/protocol 6/);
  });

  it("exits soon after the process that started it is gone without stopping it", async () => {
    // A shell plays Terraform: it starts the provider, says its pid, and is killed outright.
    const terraformCert = createSelfSignedCertificate();
    const env = { PATH: process.env.PATH, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "6", PLUGIN_CLIENT_CERT: terraformCert.certPem };
    const shell = spawn("sh", ["-c", `"${process.execPath}" "${LAUNCHER}" & echo "pid $!"; wait`], { env, stdio: ["ignore", "pipe", "inherit"] });
    children.push(shell);
    let out = "";
    const providerPid = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no handshake: ${out}`)), 20_000);
      shell.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const pid = /^pid (\d+)$/m.exec(out)?.[1];
        if (pid && /\|grpc\|/.test(out)) {
          clearTimeout(timer);
          resolve(Number(pid));
        }
      });
    });
    const alive = (): boolean => {
      try {
        process.kill(providerPid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    shell.kill("SIGKILL");
    for (let i = 0; i < 60 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
    const left = alive();
    if (left) process.kill(providerPid, "SIGKILL");
    expect(left).toBe(false);
  });

  it("prints exactly one line on stdout, serves, and exits 0 on Shutdown", async () => {
    const terraformCert = createSelfSignedCertificate();
    const p = run({ [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6", PLUGIN_CLIENT_CERT: terraformCert.certPem, TF_LOG: "debug" });
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no handshake; stderr: ${p.err()}`)), 20_000);
      p.child.stdout?.on("data", () => {
        if (p.out().includes("\n")) {
          clearTimeout(timer);
          resolve(p.out().split("\n")[0]);
        }
      });
    });
    const [, , network, address, , cert] = line.split("|");
    expect(network).toBe("unix");
    const serverCertPem = `-----BEGIN CERTIFICATE-----\n${Buffer.from(cert, "base64").toString("base64")}\n-----END CERTIFICATE-----\n`;
    const provider = client(services.provider, `unix:${address}`, serverCertPem, terraformCert);
    const schema = await call(provider, "GetProviderSchema");
    expect(Object.keys(schema.resource_schemas as Msg)).toContain("tfp_thing");
    const controller = client(services.controller, `unix:${address}`, serverCertPem, terraformCert);
    await call(controller, "Shutdown");
    expect(await p.exited).toBe(0);
    provider.close();
    controller.close();
    expect(p.out()).toBe(`${line}\n`);
    expect(p.err()).toMatch(/\[DEBUG\] provider\.ods: GetProviderSchema took/);
    expect(fs.existsSync(address)).toBe(false);
  });
});

