// HTTPS_PROXY / HTTP_PROXY / NO_PROXY as curl reads them, in the client both engines use:
// `ods plan` reaches the emulator through a forwarding proxy on 127.0.0.1 when HTTP_PROXY
// names it, and straight when NO_PROXY names the emulator's host; https goes through a
// CONNECT tunnel, TLS end to end (the proxy sees the host, never the request).
import * as fs from "node:fs";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { DEFERRED_CA_ENV } from "../../src/api/deferred-ca";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { startHttpProxy, type HttpProxy } from "../helpers/forward-proxy";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";
import { hasOpenssl, makeTestCertificate } from "../helpers/test-ca";

const PROXY_NAMES = ["HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY"].flatMap((n) => [n, n.toLowerCase()]);
/** The proxy variables of this test process, off unless a test sets them. */
const noProxies = Object.fromEntries(PROXY_NAMES.map((n) => [n, undefined]));

let emu: EmulatorHandle;
let proxy: HttpProxy;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  proxy = await startHttpProxy();
});
afterAll(async () => {
  await proxy.close();
  await emu.close();
  removeTempDirs();
});

describe("ods plan behind a proxy", () => {
  const plan = (env: Record<string, string | undefined>) => {
    const dir = tempDir();
    writeStack(dir, { resource: { ods_role: { readers: { name: "proxied-readers", description: "through the proxy" } } } });
    return runOds(["plan", ...stackFlags(dir)], { env: { ...noProxies, ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, ...env } });
  };

  it("sends every request through HTTP_PROXY", async () => {
    proxy.seen.length = 0;
    emu.resetRequests();
    const r = await plan({ HTTP_PROXY: proxy.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ods_role\.readers/);
    const served = emu.requests().length;
    expect(served).toBeGreaterThan(0);
    expect(proxy.seen.length).toBe(served);
    for (const line of proxy.seen) expect(line).toMatch(new RegExp(`^GET ${emu.url}/v\\d/`));
  });

  it("goes straight to a host NO_PROXY names, as curl does (host with port too)", async () => {
    const host = new URL(emu.url).host;
    for (const noProxy of ["127.0.0.1", `example.invalid, ${host}`]) {
      proxy.seen.length = 0;
      const r = await plan({ http_proxy: proxy.url, NO_PROXY: noProxy });
      expect(r.code, r.stderr).toBe(0);
      expect(proxy.seen).toEqual([]);
    }
  });

  it("fails clearly, naming no credential, when the proxy cannot be reached", async () => {
    const r = await plan({ HTTP_PROXY: "http://user:proxy-secret@127.0.0.1:1" });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/ECONNREFUSED|connect/i);
    expect(r.stdout + r.stderr).not.toContain("proxy-secret");
    expect(r.stdout + r.stderr).not.toContain(emu.adminToken);
  });
});

describe.skipIf(!hasOpenssl)("https behind a proxy", () => {
  let server: https.Server;
  let url: string;
  const saved = Object.fromEntries([...PROXY_NAMES, DEFERRED_CA_ENV].map((n) => [n, process.env[n]]));

  beforeAll(async () => {
    const dir = tempDir("ods-proxy-ca-");
    const cert = makeTestCertificate(dir);
    process.env[DEFERRED_CA_ENV] = cert.certFile;
    server = https.createServer({ key: cert.keyPem, cert: cert.certPem }, (_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ id: "org-1", name: "tunnelled", ratePerSecond: 100 }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(fs.existsSync(cert.certFile)).toBe(true);
  });
  afterEach(() => {
    for (const n of PROXY_NAMES) delete process.env[n];
  });
  afterAll(async () => {
    for (const [n, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("tunnels through HTTPS_PROXY with CONNECT, the server's certificate checked end to end", async () => {
    proxy.seen.length = 0;
    process.env.HTTPS_PROXY = proxy.url;
    const client = new OdsClient({ url, token: "tunnel-token", maxRetries: 0 });
    try {
      expect(await client.getOrganization("org-1")).toMatchObject({ name: "tunnelled" });
    } finally {
      await client.close();
    }
    expect(proxy.seen).toEqual([`CONNECT ${new URL(url).host}`]);
  });

  it("checks the certificate against the host the URL names, through the tunnel too", async () => {
    process.env.HTTPS_PROXY = proxy.url;
    // The same server by another name its certificate does not hold.
    const client = new OdsClient({ url: url.replace("127.0.0.1", "localhost"), token: "tunnel-token", maxRetries: 0 });
    try {
      await expect(client.getOrganization("org-1")).rejects.toThrow(/localhost|altnames|certificate/i);
    } finally {
      await client.close();
    }
  });

  it("does not use HTTP_PROXY for an https URL", async () => {
    proxy.seen.length = 0;
    process.env.HTTP_PROXY = proxy.url;
    const client = new OdsClient({ url, token: "tunnel-token", maxRetries: 0 });
    try {
      expect(await client.getOrganization("org-1")).toMatchObject({ name: "tunnelled" });
    } finally {
      await client.close();
    }
    expect(proxy.seen).toEqual([]);
  });
});
