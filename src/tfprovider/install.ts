// Installs a Node-based provider where Terraform finds it offline: a filesystem mirror
// in the "unpacked" layout plus a CLI configuration that points Terraform at it.
//
//   DIR/mirror/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE_vVERSION
//   DIR/terraform.rc
//
// Use with TF_CLI_CONFIG_FILE=DIR/terraform.rc; `terraform init` then installs the
// provider from the mirror (and records it in .terraform.lock.hcl) without network.
// The "binary" is a small shell script that execs node on the launcher script.
import * as fs from "node:fs";
import * as path from "node:path";

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

export function installProviderMirror(options: InstallMirrorOptions): InstalledMirror {
  if (process.platform === "win32") throw new Error("installing the Node provider into a mirror is supported on Linux and macOS only");
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(options.version)) throw new Error(`invalid provider version ${JSON.stringify(options.version)}`);
  const source = options.providerSource ?? DEFAULT_PROVIDER_SOURCE;
  const { host, namespace, type } = parseSource(source);
  const dir = path.resolve(options.dir);
  const launcher = path.resolve(options.launcherPath);
  if (!fs.existsSync(launcher)) throw new Error(`launcher ${launcher} does not exist`);

  const mirrorDir = path.join(dir, "mirror");
  const packageDir = path.join(mirrorDir, host, namespace, type, options.version, terraformPlatform());
  fs.mkdirSync(packageDir, { recursive: true });
  const binaryPath = path.join(packageDir, `terraform-provider-${type}_v${options.version}`);
  const script = `#!/bin/sh\n# Terraform provider ${source} ${options.version}, served by Node.\nexec ${shellQuote(options.nodePath ?? process.execPath)} ${shellQuote(launcher)} "$@"\n`;
  fs.writeFileSync(binaryPath, script, { mode: 0o755 });
  fs.chmodSync(binaryPath, 0o755);

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
  return { cliConfigPath, mirrorDir, binaryPath };
}
