// `ods export`: a live organization as code (a CDKTF project, one construct class, or
// Terraform JSON), and `--adopt` to record the exported objects in the state at once.
import type { Command } from "commander";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { OdsClient, resolveClientConfig } from "../api";
import { writeAdoptedState } from "../export/adopt";
import { buildExport, type ExportedObject, type OrgExport, variableLine } from "../export/export-model";
import { parseNameMapping, renameObjects } from "../export/name-mapping";
import { readOrganization, resolveKinds } from "../export/org-snapshot";
import { dependencySpec, ownPackage, projectFiles, renderConstructModule, writeFiles } from "../export/project";
import { tfJsonConfig } from "../export/write-tf-json";
import { LocalBackend, defaultLocalPath } from "../reconcile/backends";
import { StateStore } from "../reconcile/state";

/** The local emulator's own token: the one `ods emulator` prints, skipped unless told otherwise. */
export const EMULATOR_TOKEN_NAME = "emulator-admin";

interface ExportOpts {
  out?: string;
  module?: string;
  format: string;
  kinds?: string;
  selfToken: string[];
  className: string;
  stackName: string;
  packageSpec?: string;
  adopt?: boolean;
  url?: string;
  tokenEnv: string;
  orgId?: string;
  map: string[];
  credentialsFile?: string;
}

/** The credentials the service returned, as a .tfvars.json only its owner can read. */
function writeCredentials(exp: OrgExport, file: string, log: (line: string) => void): void {
  const known = exp.variables.filter((v) => v.known !== undefined);
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, `${JSON.stringify(Object.fromEntries(known.map((v) => [v.name, v.known])), null, 2)}\n`, { mode: 0o600 });
  // writeFileSync keeps the mode of a file that already exists.
  fs.chmodSync(target, 0o600);
  log(`Wrote ${known.length} credential value${known.length === 1 ? "" : "s"} to ${file} (mode 600): keep it out of version control; pass it with --var-file`);
}

/** A client for a URL whose token is read from an environment variable, never the command line. */
export function clientFromEnv(url: string | undefined, tokenEnv: string, orgId?: string): OdsClient {
  const token = process.env[tokenEnv];
  if (!token) throw new Error(`no token: set the environment variable ${tokenEnv} (tokens are never taken from the command line)`);
  return new OdsClient(resolveClientConfig({ url: url ?? process.env.ODS_URL, token, orgId: orgId ?? process.env.ODS_ORG_ID }));
}

/** Commander collector for a repeatable option. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The calling token's names: the service does not say which token calls, so the caller names it. */
export function selfTokens(given: string[]): string[] {
  return given.length > 0 ? given : [EMULATOR_TOKEN_NAME];
}

/**
 * Addresses the synthesized project gives the objects: CDKTF names a construct nested in
 * the class ("org/NAME") by its path and the first 8 hex digits of the path's MD5.
 */
function cdktfAddress(o: ExportedObject): string {
  const components = ["org", o.name];
  const hash = crypto.createHash("md5").update(components.join("/")).digest("hex").slice(0, 8).toUpperCase();
  return `${o.typeName}.${components.map((c) => c.replace(/[^A-Za-z0-9_-]/g, "")).join("_")}_${hash}`;
}

function describe(exp: OrgExport, skipped: string[], log: (line: string) => void): void {
  for (const s of skipped) log(`skipped ${s}`);
  for (const n of exp.notes) log(`note: ${n}`);
  if (exp.variables.length > 0) {
    log(`Set these variables before plan or apply (secrets kept out of the code):`);
    for (const v of exp.variables) log(`  ${variableLine(v)}`);
  }
}

export function registerExportCommand(program: Command): void {
  program
    .command("export")
    .description("Write a live organization as code: a CDKTF project (--out), one construct class (--module), or Terraform JSON (--format tf-json).")
    .option("--out <dir>", "directory of the project (or of main.tf.json with --format tf-json)")
    .option("--module <file>", "write only the construct class to FILE, for an existing app")
    .option("--format <format>", "typescript or tf-json", "typescript")
    .option("--kinds <list>", "comma-separated kinds to export (default: every kind), e.g. notifier,role")
    .option("--self-token <name>", `name of the calling token, left out (repeatable; default: ${EMULATOR_TOKEN_NAME}, the emulator's)`, collect, [])
    .option("--class-name <name>", "name of the construct class", "ExportedOrg")
    .option("--stack-name <name>", "name of the stack in main.ts", "org")
    .option("--package-spec <spec>", "how package.json depends on this package (default: the way the running ods was installed: its tarball path or registry range)")
    .option("--adopt", "also record every exported object in the state, so that the next plan says No changes")
    .option("--url <url>", "service URL (default: ODS_URL)")
    .option("--token-env <var>", "environment variable holding the token", "ODS_TOKEN")
    .option("--org-id <id>", "organization id (default: ODS_ORG_ID)")
    .option("--credentials-file <file>", "also write the credentials the service returns (webhook URLs) to FILE as .tfvars.json, readable by you only; keep it out of version control and pass it with --var-file")
    .option("--map <FROM=TO>", "rename what is written, as ods compare --map: 'prod-=stg-' turns a production organization into staging's code (repeatable)", collect, [])
    .action(async (o: ExportOpts) => {
      const log = (line: string): void => void process.stderr.write(`${line}\n`);
      if (!o.out && !o.module) throw new Error("ods export needs --out DIR (a project) or --module FILE (the construct class only)");
      if (o.format !== "typescript" && o.format !== "tf-json") throw new Error(`--format expects typescript or tf-json, got "${o.format}"`);
      if (o.module && o.format !== "typescript") throw new Error("--module writes TypeScript; use --out DIR with --format tf-json");
      if (o.module && o.adopt) throw new Error("--adopt needs the whole project (--out DIR): only then are the addresses of the objects known");
      const mappings = o.map.map(parseNameMapping);
      // The state records the objects as they live; renamed code would not match them.
      if (mappings.length > 0 && o.adopt) throw new Error("--map writes code for another environment; --adopt records this organization's objects as they are: use one or the other");
      if (!/^[A-Z][A-Za-z0-9]*$/.test(o.className)) throw new Error(`--class-name expects a PascalCase name like ExportedOrg, got "${o.className}"`);
      const client = clientFromEnv(o.url, o.tokenEnv, o.orgId);
      try {
        const snapshot = await readOrganization(client, {
          kinds: o.kinds ? resolveKinds(o.kinds.split(",")) : undefined,
          selfTokenNames: selfTokens(o.selfToken),
        });
        snapshot.objects = renameObjects(snapshot.objects, mappings).objects;
        const exp = buildExport(snapshot);
        let written: string[];
        if (o.module) {
          const file = path.resolve(o.module);
          const moduleName = path.basename(file).replace(/\.ts$/, "");
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, renderConstructModule(exp, { className: o.className, moduleName, stackName: o.stackName }));
          written = [file];
        } else if (o.format === "tf-json") {
          const config = tfJsonConfig(exp);
          // Terraform's import blocks adopt the objects in the first plan of that directory.
          if (o.adopt) config.import = exp.objects.map((x) => ({ to: `${x.typeName}.${x.name}`, id: x.live.id }));
          written = writeFiles(path.resolve(o.out!), { "main.tf.json": `${JSON.stringify(config, null, 2)}\n` });
        } else {
          const moduleName = o.className.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
          const own = ownPackage();
          const dep = dependencySpec({ packageRoot: path.resolve(__dirname, "../.."), outDir: path.resolve(o.out!), name: own.name, version: own.version, given: o.packageSpec });
          written = writeFiles(path.resolve(o.out!), projectFiles(exp, { className: o.className, moduleName, stackName: o.stackName, packageSpec: dep.spec, packageSpecWhy: dep.why }));
          log(`package.json depends on ${own.name} ${dep.spec}: ${dep.why}`);
        }
        const where = o.module ? path.dirname(written[0]) : path.resolve(o.out!);
        process.stdout.write(`Exported ${exp.objects.length} objects into ${where}: ${written.map((f) => path.basename(f)).join(", ")}\n`);
        describe(exp, snapshot.skipped, log);
        if (o.credentialsFile) writeCredentials(exp, o.credentialsFile, log);
        if (o.adopt && o.format === "typescript") {
          // The exported project declares no backend: cdktf's default local state of the stack.
          const stateFile = defaultLocalPath(path.resolve(o.out!), o.stackName);
          const store = new StateStore(new LocalBackend(stateFile), log);
          let result;
          try {
            await store.lock("ods export --adopt");
            result = await writeAdoptedState(exp, snapshot.callerId, store, cdktfAddress);
          } finally {
            await store.close();
          }
          process.stdout.write(`Recorded ${result.adopted} objects in ${path.relative(process.cwd(), stateFile)}\n`);
          if (result.unsetSecrets.length > 0) {
            log(`not set: ${result.unsetSecrets.join(", ")}; the next apply writes those secrets once (the service never returns them)`);
          }
        }
      } finally {
        await client.close();
      }
    });
}
