// A certificate for an HTTPS server on 127.0.0.1 that no public CA signed, made with the
// machine's `openssl` (a real CA file, as a team behind a corporate CA has one). Tests that
// need it are skipped, with the reason printed, where openssl is missing.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export const hasOpenssl = spawnSync("openssl", ["version"], { encoding: "utf8" }).status === 0;
if (!hasOpenssl) console.warn("HTTPS tests with a private CA skipped: `openssl` is not on PATH");

export interface TestCertificate {
  /** PEM file of the self-signed certificate: the CA file a client must be given. */
  readonly certFile: string;
  readonly certPem: string;
  readonly keyPem: string;
}

export function makeTestCertificate(dir: string): TestCertificate {
  const certFile = path.join(dir, "test-ca.pem");
  const keyFile = path.join(dir, "test-ca.key");
  const r = spawnSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=ods test CA", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", keyFile, "-out", certFile],
    { encoding: "utf8", timeout: 30_000 },
  );
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  return { certFile, certPem: fs.readFileSync(certFile, "utf8"), keyPem: fs.readFileSync(keyFile, "utf8") };
}
