// The HTTPS client honours the extra CA file the provider's launcher deferred (moved from
// NODE_EXTRA_CA_CERTS to ODS_DEFERRED_EXTRA_CA_CERTS): a server signed by that CA is
// reached, one signed by nobody the client trusts is refused, and an unreadable file is
// ignored with a warning, as Node does with NODE_EXTRA_CA_CERTS. A refused certificate
// fails the call at once (no retry can change it), and a write refused so was not sent.
import * as fs from "node:fs";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFERRED_CA_ENV } from "../../src/api/deferred-ca";
import { exchange, ExchangeFailure, keepAliveAgent } from "../../src/api/http-exchange";
import { OdsClient, type RequestEvent } from "../../src/api";
import { hasOpenssl, makeTestCertificate } from "../helpers/test-ca";

describe.skipIf(!hasOpenssl)("HTTPS with a deferred extra CA file", () => {
  let dir: string;
  let server: https.Server;
  let url: string;
  let certFile: string;
  const saved = process.env[DEFERRED_CA_ENV];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-deferred-ca-"));
    const cert = makeTestCertificate(dir);
    certFile = cert.certFile;
    server = https.createServer({ key: cert.keyPem, cert: cert.certPem }, (_req, res) => res.end("hello"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env[DEFERRED_CA_ENV];
    else process.env[DEFERRED_CA_ENV] = saved;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses the server without the CA file", async () => {
    delete process.env[DEFERRED_CA_ENV];
    const err = await exchange(url, { method: "GET", headers: {} }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ExchangeFailure);
    expect((err as ExchangeFailure).message).toMatch(/certificate/i);
  });

  it("fails a client call at its first attempt, a write as not sent, naming the certificate", async () => {
    delete process.env[DEFERRED_CA_ENV];
    const events: RequestEvent[] = [];
    const client = new OdsClient({ url: url.replace(/\/x$/, ""), token: "secret-token-value", maxRetries: 3, onRequest: (e) => events.push(e) });
    try {
      const err = await client.createDataset({ name: "logs" }).then(() => undefined, (e: unknown) => e);
      expect(err).toMatchObject({ kind: "network", status: 0, requestMayHaveBeenApplied: false });
      expect(String(err)).toMatch(/certificate/i);
      expect(String(err)).not.toContain("secret-token-value");
      expect(events).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it("reaches the server with the CA file, with and without a keep-alive pool", async () => {
    process.env[DEFERRED_CA_ENV] = certFile;
    expect((await exchange(url, { method: "GET", headers: {} })).text).toBe("hello");
    const agent = keepAliveAgent(url, 2, 5_000);
    try {
      expect((await exchange(url, { method: "GET", headers: {}, agent })).text).toBe("hello");
    } finally {
      agent.destroy();
    }
  });

  it("ignores an unreadable CA file with a warning, as Node does", async () => {
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      process.env[DEFERRED_CA_ENV] = path.join(dir, "missing.pem");
      const err = await exchange(url, { method: "GET", headers: {} }).then(() => undefined, (e: unknown) => e);
      expect((err as ExchangeFailure).message).toMatch(/certificate/i);
      expect(String(warn.mock.calls[0]?.[0])).toContain("missing.pem");
    } finally {
      warn.mockRestore();
    }
  });
});
