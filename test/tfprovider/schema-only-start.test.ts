// The provider bundle as Terraform starts it, asked for its schema alone (the first start
// of every terraform command): it answers with the schema the build embedded, the same
// bytes the model encodes, without loading the model. The first start after an install
// writes the code cache and loads the model, so that the cache holds the model's code.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { credentials, makeGenericClientConstructor } from "@grpc/grpc-js";
import { afterAll, describe, expect, it } from "vitest";
import { OdsTerraformProvider } from "../../src/tfprovider/ods-provider";
import { createSelfSignedCertificate } from "../../src/tfprovider/protocol/certificate";
import { loadProtocolServices, protocolCodec } from "../../src/tfprovider/protocol/definitions";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../src/tfprovider/protocol/handshake";
import { encodedSchemaResponse } from "../../src/tfprovider/provider-service";

const BUNDLE = path.join(__dirname, "../../lib/bundle/terraform-provider-ods.js");
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "schema-only-start-"));
afterAll(() => fs.rmSync(cacheDir, { recursive: true, force: true }));

const terraformCert = createSelfSignedCertificate({ dnsNames: ["localhost"] });
const Provider = makeGenericClientConstructor(loadProtocolServices().provider, "Provider");
const Controller = makeGenericClientConstructor(loadProtocolServices().controller, "Controller");

/** Starts the bundle, asks GetProviderSchema, stops it with Shutdown; its answer's bytes and its debug log. */
async function schemaOnlyStart(): Promise<{ answer: Buffer; log: string }> {
  const env = { PATH: process.env.PATH, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "6", PLUGIN_CLIENT_CERT: terraformCert.certPem, TF_LOG: "debug", ODS_PROVIDER_CACHE_DIR: cacheDir };
  const child = spawn(process.execPath, [BUNDLE], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no handshake; stderr: ${stderr}`)), 20_000);
      child.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes("\n")) {
          clearTimeout(timer);
          resolve(stdout.split("\n")[0]);
        }
      });
    });
    const [, , , address, , cert] = line.split("|");
    // go-plugin's form: DER in base64 without padding.
    const serverPem = `-----BEGIN CERTIFICATE-----\n${Buffer.from(cert, "base64").toString("base64").replace(/(.{64})/g, "$1\n")}\n-----END CERTIFICATE-----\n`;
    const creds = credentials.createSsl(Buffer.from(serverPem), Buffer.from(terraformCert.keyPem), Buffer.from(terraformCert.certPem));
    const options = { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" };
    const provider = new Provider(`unix:${address}`, creds, options);
    const controller = new Controller(`unix:${address}`, creds, options);
    const call = (c: InstanceType<typeof Provider>, method: string): Promise<Record<string, unknown>> =>
      new Promise((resolve, reject) => (c as unknown as Record<string, (r: object, cb: (e: Error | null, r: Record<string, unknown>) => void) => void>)[method].call(c, {}, (e, r) => (e ? reject(e) : resolve(r))));
    const schema = await call(provider, "GetProviderSchema");
    await call(controller, "Shutdown");
    provider.close();
    controller.close();
    expect(await exited).toBe(0);
    return { answer: protocolCodec.encode("tfplugin6.GetProviderSchema.Response", schema), log: stderr };
  } finally {
    child.kill("SIGKILL");
  }
}

describe("a start asked only for the schema", () => {
  const model = encodedSchemaResponse(new OdsTerraformProvider());

  it("answers the model's schema; the first start (code cache cold) loads the model, a later one does not", async () => {
    const cold = await schemaOnlyStart();
    expect(cold.answer.equals(model)).toBe(true);
    expect(cold.log).toMatch(/loading the provider's implementation/);
    expect(fs.readdirSync(cacheDir).some((f) => f.startsWith("code-"))).toBe(true);
    const warm = await schemaOnlyStart();
    expect(warm.answer.equals(model)).toBe(true);
    expect(warm.log).toMatch(/GetProviderSchema took/);
    expect(warm.log).not.toMatch(/loading the provider's implementation/);
  });
});
