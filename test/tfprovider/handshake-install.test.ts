import { spawnSync } from "node:child_process";
import { createPrivateKey, X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installProviderMirror, terraformPlatform } from "../../src/tfprovider/install";
import { createSelfSignedCertificate } from "../../src/tfprovider/protocol/certificate";
import { checkLaunchEnvironment, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../src/tfprovider/protocol/handshake";

const LAUNCHER = path.join(__dirname, "fixtures", "launch-thing-provider.js");

describe("the server certificate", () => {
  const cert = createSelfSignedCertificate();
  const x509 = new X509Certificate(cert.certPem);

  it("names localhost, as Terraform's TLS client requires", () => {
    expect(x509.subjectAltName).toBe("DNS:localhost");
    expect(x509.checkHost("localhost")).toBe("localhost");
  });

  it("is self-signed by the key it comes with, and valid now", () => {
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(x509.checkPrivateKey(createPrivateKey(cert.keyPem))).toBe(true);
    expect(new Date(x509.validFrom).getTime()).toBeLessThan(Date.now());
    expect(new Date(x509.validTo).getTime()).toBeGreaterThan(Date.now());
    expect(Buffer.from(x509.raw)).toEqual(cert.certDer);
  });

  it("is new on every start", () => {
    expect(createSelfSignedCertificate().certDer).not.toEqual(cert.certDer);
  });
});

describe("the launch environment", () => {
  const started = { [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6", PLUGIN_CLIENT_CERT: "PEM" };

  it("uses Terraform's client certificate for mTLS", () => {
    expect(checkLaunchEnvironment(started)).toEqual({ ok: true, launch: { clientCertPem: "PEM" } });
  });

  it("serves plaintext when TF_DISABLE_PLUGIN_TLS is set", () => {
    expect(checkLaunchEnvironment({ ...started, TF_DISABLE_PLUGIN_TLS: "1" })).toEqual({ ok: true, launch: { clientCertPem: null } });
  });

  it("puts the socket where Terraform asks", () => {
    expect(checkLaunchEnvironment({ ...started, PLUGIN_UNIX_SOCKET_DIR: "/run/x" })).toMatchObject({ launch: { socketDir: "/run/x" } });
  });

  it("refuses a wrong cookie", () => {
    expect(checkLaunchEnvironment({ ...started, [MAGIC_COOKIE_KEY]: "nope" }).ok).toBe(false);
  });
});

describe("installing into a filesystem mirror", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tfp-install-test-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("lays the provider out where terraform init looks and writes a CLI config for it", () => {
    const r = installProviderMirror({ dir, version: "1.2.3", launcherPath: LAUNCHER });
    expect(r.binaryPath).toBe(path.join(dir, "mirror", "registry.terraform.io", "ods", "ods", "1.2.3", terraformPlatform(), "terraform-provider-ods_v1.2.3"));
    expect(fs.statSync(r.binaryPath).mode & 0o111).not.toBe(0);
    const rc = fs.readFileSync(r.cliConfigPath, "utf8");
    expect(rc).toContain(`path    = ${JSON.stringify(r.mirrorDir)}`);
    expect(rc).toContain('include = ["registry.terraform.io/ods/ods"]');
    expect(rc).toContain('exclude = ["registry.terraform.io/ods/ods"]');
  });

  it("makes a binary that runs the launcher with node", () => {
    const r = installProviderMirror({ dir, version: "1.2.3", launcherPath: LAUNCHER });
    const run = spawnSync(r.binaryPath, [], { encoding: "utf8", env: { PATH: process.env.PATH }, timeout: 30_000 });
    expect(run.status).toBe(1); // not started by Terraform: the launcher's refusal
    expect(run.stderr).toMatch(/plugin for Terraform/);
  });

  it("hands NODE_EXTRA_CA_CERTS to the provider under ODS_DEFERRED_EXTRA_CA_CERTS, so Node does not parse it at each start", () => {
    const echo = path.join(dir, "echo-env.js");
    fs.writeFileSync(echo, 'process.stdout.write(JSON.stringify([process.env.NODE_EXTRA_CA_CERTS ?? null, process.env.ODS_DEFERRED_EXTRA_CA_CERTS ?? null, process.argv.slice(2)]));');
    const r = installProviderMirror({ dir: path.join(dir, "echo"), version: "1.2.3", launcherPath: echo });
    const withCas = spawnSync(r.binaryPath, ["a b"], { encoding: "utf8", env: { PATH: process.env.PATH, NODE_EXTRA_CA_CERTS: "/etc/corp ca.pem" }, timeout: 30_000 });
    expect(JSON.parse(withCas.stdout)).toEqual([null, "/etc/corp ca.pem", ["a b"]]);
    const without = spawnSync(r.binaryPath, [], { encoding: "utf8", env: { PATH: process.env.PATH }, timeout: 30_000 });
    expect(JSON.parse(without.stdout)).toEqual([null, null, []]);
  });

  it("rejects a malformed source or version", () => {
    expect(() => installProviderMirror({ dir, version: "1.2", launcherPath: LAUNCHER })).toThrow(/invalid provider version/);
    expect(() => installProviderMirror({ dir, version: "1.2.3", providerSource: "ods/ods", launcherPath: LAUNCHER })).toThrow(/HOST\/NAMESPACE\/TYPE/);
  });

  it("maps Node's platform names to Terraform's", () => {
    expect(terraformPlatform("linux", "x64")).toBe("linux_amd64");
    expect(terraformPlatform("darwin", "arm64")).toBe("darwin_arm64");
  });
});
