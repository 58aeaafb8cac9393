// Installs a Node-based provider where Terraform finds it offline: a filesystem mirror
// in the "unpacked" layout plus a CLI configuration that points Terraform at it.
//
//   DIR/mirror/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE_vVERSION
//   DIR/terraform.rc
//
// Use with TF_CLI_CONFIG_FILE=DIR/terraform.rc; `terraform init` then installs the
// provider from the mirror (and records it in .terraform.lock.hcl) without network.
// installProviderMirror (development, tests): the "binary" is a small shell script that
// execs this node on a launcher script by absolute path.
// installProviderPackage (`ods terraform install`): a portable provider package, the
// self-contained bundle plus a shim that runs the `node` on PATH, zipped per platform in
// the "packed" mirror layout with SHA256SUMS: its bytes depend on the version only, so
// .terraform.lock.hcl checksums are the same on every machine.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { allowedEnvCasePattern } from "../api/allowed-env";
import { DEFERRED_CA_ENV } from "../api/deferred-ca";
import { zipArchive } from "./zip";

export const DEFAULT_PROVIDER_SOURCE = "registry.terraform.io/ods/ods";

export interface InstallMirrorOptions {
  /** Where to create mirror/ and terraform.rc (created if missing). */
  readonly dir: string;
  /** Full provider source address, HOST/NAMESPACE/TYPE. Default registry.terraform.io/ods/ods. */
  readonly providerSource?: string;
  /** Provider version, e.g. "0.1.0" (what a `required_providers` constraint matches). */
  readonly version: string;
  /** The JS file that calls serveProvider. */
  readonly launcherPath: string;
  /** The node binary to run it with. Default: the node running this code. */
  readonly nodePath?: string;
}

export interface InstalledMirror {
  /** Set TF_CLI_CONFIG_FILE to this. */
  readonly cliConfigPath: string;
  readonly mirrorDir: string;
  /** The executable Terraform will start. */
  readonly binaryPath: string;
}

/** Terraform's OS_ARCH for this machine (linux_amd64, darwin_arm64, ...). */
export function terraformPlatform(platform: string = process.platform, arch: string = process.arch): string {
  const archs: Record<string, string> = { x64: "amd64", arm64: "arm64", ia32: "386", arm: "arm" };
  const t = archs[arch];
  if (!t) throw new Error(`Terraform has no provider builds for the CPU architecture ${arch}`);
  return `${platform === "win32" ? "windows" : platform}_${t}`;
}

function parseSource(source: string): { host: string; namespace: string; type: string } {
  const parts = source.split("/");
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9._-]+$/.test(p))) {
    throw new Error(`provider source must be HOST/NAMESPACE/TYPE, got ${JSON.stringify(source)}`);
  }
  const [host, namespace, type] = parts;
  return { host, namespace, type };
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function hclString(s: string): string {
  return JSON.stringify(s); // HCL string escapes are a superset of what JSON.stringify emits here
}

/** Writes the CLI config that installs `source` from `mirrorDir` and everything else as usual. */
function writeCliConfig(dir: string, mirrorDir: string, source: string): string {
  const cliConfigPath = path.join(dir, "terraform.rc");
  const cliConfig = [
    "# Written by terraform-provider-ods: install this provider from the local mirror,",
    "# everything else from its registry as usual.",
    "provider_installation {",
    "  filesystem_mirror {",
    `    path    = ${hclString(mirrorDir)}`,
    `    include = [${hclString(source)}]`,
    "  }",
    "  direct {",
    `    exclude = [${hclString(source)}]`,
    "  }",
    "}",
    "",
  ].join("\n");
  fs.writeFileSync(cliConfigPath, cliConfig);
  return cliConfigPath;
}

function checkVersion(version: string): void {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) throw new Error(`invalid provider version ${JSON.stringify(version)}`);
}

export function installProviderMirror(options: InstallMirrorOptions): InstalledMirror {
  if (process.platform === "win32") throw new Error("installing the Node provider into a mirror is supported on Linux and macOS only");
  checkVersion(options.version);
  const source = options.providerSource ?? DEFAULT_PROVIDER_SOURCE;
  const { host, namespace, type } = parseSource(source);
  const dir = path.resolve(options.dir);
  const launcher = path.resolve(options.launcherPath);
  if (!fs.existsSync(launcher)) throw new Error(`launcher ${launcher} does not exist`);

  const mirrorDir = path.join(dir, "mirror");
  const packageDir = path.join(mirrorDir, host, namespace, type, options.version, terraformPlatform());
  fs.mkdirSync(packageDir, { recursive: true });
  const binaryPath = path.join(packageDir, `terraform-provider-${type}_v${options.version}`);
  const script = launcherScript([`# Terraform provider ${source} ${options.version}, served by Node.`], `${shellQuote(options.nodePath ?? process.execPath)} ${shellQuote(launcher)}`, false);
  fs.writeFileSync(binaryPath, script, { mode: 0o755 });
  fs.chmodSync(binaryPath, 0o755);

  const cliConfigPath = writeCliConfig(dir, mirrorDir, source);
  return { cliConfigPath, mirrorDir, binaryPath };
}

/** The platforms a package is laid out for: the shim runs wherever sh and node do. */
export const PACKAGE_PLATFORMS = ["linux_amd64", "linux_arm64", "darwin_amd64", "darwin_arm64"] as const;

export interface InstallPackageOptions {
  /** Where to create mirror/, release/ and terraform.rc (created if missing). */
  readonly dir: string;
  /** Full provider source address, HOST/NAMESPACE/TYPE. Default registry.terraform.io/ods/ods. */
  readonly providerSource?: string;
  readonly version: string;
  /** The self-contained provider program (one JS file). */
  readonly bundlePath: string;
}

export interface InstalledPackage {
  /** Set TF_CLI_CONFIG_FILE to this (terraform init installs from the mirror). */
  readonly cliConfigPath: string;
  /** Packed filesystem mirror; also a network mirror when served over HTTP (index.json). */
  readonly mirrorDir: string;
  /** The release a registry serves: one zip per platform, SHA256SUMS, manifest. */
  readonly releaseDir: string;
  /** Platform -> the `zh:` checksum Terraform records in .terraform.lock.hcl. */
  readonly zipHashes: Readonly<Record<string, string>>;
  /** The `h1:` checksum (the same for every platform: the package is the same). */
  readonly h1Hash: string;
}

function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Terraform's `h1:` hash (Go's dirhash Hash1) of the files a package unpacks to. */
function h1Hash(files: ReadonlyMap<string, Uint8Array>): string {
  const lines = [...files.keys()].sort().map((name) => `${sha256(files.get(name)!)}  ${name}\n`);
  return `h1:${createHash("sha256").update(lines.join("")).digest("base64")}`;
}

/**
 * The shell script Terraform runs as the provider: it execs node on the program, after
 * handing NODE_EXTRA_CA_CERTS over under DEFERRED_CA_ENV. Node parses that file at every
 * start (~50 ms of CPU here for the system bundle), and of the three starts of a Terraform
 * command only one calls the service; its HTTPS client loads the file then
 * (src/api/deferred-ca.ts).
 *
 * The package's script (`allowedEnvOnly`) starts Node through `env -i` with the
 * allowlisted variables alone (src/api/allowed-env.ts): deleting from process.env inside
 * Node would not change the environment the kernel keeps for the process
 * (/proc/PID/environ), which would still hold the shell's cloud credentials and CI
 * tokens. Names are read from `env`'s output: a line of a multi-line value that looks
 * like an assignment is only taken when that variable is really set (`${NAME+x}`).
 * Variables whose names sh cannot hold (`A.B`) are never on the allowlist, and `env -i`
 * drops them. Arguments stay after the program's. A development mirror's script runs a
 * launcher of any provider, whose environment is its own business: it passes all.
 */
function launcherScript(head: readonly string[], program: string, allowedEnvOnly: boolean): string {
  const start = allowedEnvOnly
    ? [
        "n=$#",
        "for name in $(env | sed -n 's/^\\([A-Za-z_][A-Za-z0-9_]*\\)=.*/\\1/p'); do",
        `  case $name in ${allowedEnvCasePattern()}) eval "[ -z \\"\\\${$name+x}\\" ] || set -- \\"\\$@\\" \\"$name=\\\${$name}\\"" ;; esac`,
        "done",
        `set -- "$@" ${program}`,
        'while [ "$n" -gt 0 ]; do set -- "$@" "$1"; shift; n=$((n - 1)); done',
        'exec env -i "$@"',
      ]
    : [`exec ${program} "$@"`];
  return [
    "#!/bin/sh",
    ...head,
    `if [ -n "\${NODE_EXTRA_CA_CERTS:-}" ]; then ${DEFERRED_CA_ENV}=$NODE_EXTRA_CA_CERTS; export ${DEFERRED_CA_ENV}; unset NODE_EXTRA_CA_CERTS; fi`,
    ...start,
    "",
  ].join("\n");
}

function shim(source: string, version: string, bundleName: string): string {
  // Resolved against the script's own directory (without forking dirname) and started
  // with the node on PATH (ODS_PROVIDER_NODE overrides it): no path of the machine that
  // installed it.
  return launcherScript(
    [`# Terraform provider ${source} ${version}, served by Node (>= 20.18.1).`, 'case $0 in */*) here=${0%/*} ;; *) here=. ;; esac'],
    `"\${ODS_PROVIDER_NODE:-node}" "$here/${bundleName}"`,
    true,
  );
}

/** The files of a provider package, as Terraform unpacks it: the shim Terraform starts (`executable`) and the bundle. */
export function providerPackageFiles(options: { source: string; version: string; bundle: Uint8Array }): { executable: string; files: ReadonlyMap<string, Uint8Array> } {
  const { type } = parseSource(options.source);
  const bundleName = "provider-bundle.js";
  const executable = `terraform-provider-${type}_v${options.version}`;
  const files = new Map<string, Uint8Array>([
    [executable, Buffer.from(shim(options.source, options.version, bundleName))],
    [bundleName, options.bundle],
  ]);
  return { executable, files };
}

export function installProviderPackage(options: InstallPackageOptions): InstalledPackage {
  checkVersion(options.version);
  const source = options.providerSource ?? DEFAULT_PROVIDER_SOURCE;
  const { host, namespace, type } = parseSource(source);
  const dir = path.resolve(options.dir);
  if (!fs.existsSync(options.bundlePath)) throw new Error(`provider bundle ${options.bundlePath} does not exist (run npm run build)`);
  const { executable, files } = providerPackageFiles({ source, version: options.version, bundle: fs.readFileSync(options.bundlePath) });
  const zip = zipArchive([...files.keys()].sort().map((name) => ({ name, data: files.get(name)!, executable: name === executable })));
  const h1 = h1Hash(files);

  const mirrorDir = path.join(dir, "mirror");
  const providerDir = path.join(mirrorDir, host, namespace, type);
  const releaseDir = path.join(dir, "release");
  fs.mkdirSync(providerDir, { recursive: true });
  fs.mkdirSync(releaseDir, { recursive: true });
  const zipHashes: Record<string, string> = {};
  const archives: Record<string, { url: string; hashes: string[] }> = {};
  const sums: string[] = [];
  for (const platform of PACKAGE_PLATFORMS) {
    const zipName = `terraform-provider-${type}_${options.version}_${platform}.zip`;
    fs.writeFileSync(path.join(providerDir, zipName), zip);
    fs.writeFileSync(path.join(releaseDir, zipName), zip);
    const hex = sha256(zip);
    zipHashes[platform] = `zh:${hex}`;
    archives[platform] = { url: zipName, hashes: [h1, `zh:${hex}`] };
    sums.push(`${hex}  ${zipName}`);
  }
  // Network mirror protocol files: serve mirror/ over HTTPS and it is a network_mirror.
  fs.writeFileSync(path.join(providerDir, "index.json"), `${JSON.stringify({ versions: { [options.version]: {} } }, null, 2)}\n`);
  fs.writeFileSync(path.join(providerDir, `${options.version}.json`), `${JSON.stringify({ archives }, null, 2)}\n`);
  // Registry release files (what a provider's release assets hold).
  const manifestName = `terraform-provider-${type}_${options.version}_manifest.json`;
  const manifest = `${JSON.stringify({ version: 1, metadata: { protocol_versions: ["6.0"] } }, null, 2)}\n`;
  fs.writeFileSync(path.join(releaseDir, manifestName), manifest);
  sums.push(`${sha256(manifest)}  ${manifestName}`);
  sums.sort((a, b) => a.slice(66).localeCompare(b.slice(66)));
  fs.writeFileSync(path.join(releaseDir, `terraform-provider-${type}_${options.version}_SHA256SUMS`), `${sums.join("\n")}\n`);

  const cliConfigPath = writeCliConfig(dir, mirrorDir, source);
  return { cliConfigPath, mirrorDir, releaseDir, zipHashes, h1Hash: h1 };
}
