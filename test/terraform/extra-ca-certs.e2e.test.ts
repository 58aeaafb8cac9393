// A service behind a CA that only NODE_EXTRA_CA_CERTS names (a team behind a corporate CA),
// reached through the real `terraform` and the provider package `ods terraform install`
// makes. The package's launcher hands the variable over under another name, so that Node
// does not parse the file at each of Terraform's starts, and the provider's HTTPS client
// adds it to Node's roots at its first request (src/api/deferred-ca.ts): the plan must
// reach the service with the variable, and be refused without it.
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, tempDir } from "../helpers/ods-cli";
import { hasOpenssl, makeTestCertificate } from "../helpers/test-ca";
import { TerraformWorkspace, hasTerraform, installProvider, odsConfig } from "./harness";

let emu: EmulatorHandle;
let front: https.Server;
let frontUrl: string;
let caFile: string;
let cliConfig: string;
let forwarded = 0;

const ready = hasTerraform && hasOpenssl;

beforeAll(async () => {
  if (!ready) return;
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  const cert = makeTestCertificate(tempDir("ods-ca-"));
  caFile = cert.certFile;
  // TLS in front of the emulator, with the private CA's certificate.
  const back = new URL(emu.url);
  front = https.createServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
    forwarded++;
    const upstream = http.request({ host: back.hostname, port: back.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
  frontUrl = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
  cliConfig = installProvider();
});
afterAll(async () => {
  if (front) {
    front.closeAllConnections();
    await new Promise((r) => front.close(r));
  }
  await emu?.close();
  removeTempDirs();
});

const CONFIG = odsConfig({ data: { ods_organization: { this: {} } }, output: { org: { value: "${data.ods_organization.this.name}" } } });

describe.skipIf(!ready)("a service whose CA only NODE_EXTRA_CA_CERTS names", () => {
  it("is reached by terraform plan with the variable set", async () => {
    const ws = new TerraformWorkspace(cliConfig, { url: frontUrl, token: emu.adminToken }, undefined, { NODE_EXTRA_CA_CERTS: caFile });
    ws.writeConfig(CONFIG);
    expect((await ws.run("init")).status).toBe(0);
    const before = forwarded;
    const plan = await ws.run("plan");
    expect(plan.status, plan.out).toBe(0);
    expect(plan.out).toContain("org");
    expect(forwarded).toBeGreaterThan(before);
  });

  it("is refused, with the reason, without it", async () => {
    const ws = new TerraformWorkspace(cliConfig, { url: frontUrl, token: emu.adminToken }, undefined, { NODE_EXTRA_CA_CERTS: undefined });
    ws.writeConfig(CONFIG);
    expect((await ws.run("init")).status).toBe(0);
    const plan = await ws.run("plan");
    expect(plan.status).toBe(1);
    expect(plan.out).toMatch(/certificate/i);
    expect(plan.out).not.toContain(emu.adminToken);
  });
});

