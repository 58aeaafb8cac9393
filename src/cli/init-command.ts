// `ods init [DIR]`: the first project. A ready CDKTF app in TypeScript beside the
// installed package: cdktf.json, tsconfig.json, package.json (this package as it was
// installed, cdktf and constructs in the ranges it supports, TypeScript), a main.ts with
// a dataset, a notifier and a monitor alerting it, and a .gitignore that keeps state
// and secrets out of git. `npm install && npx ods plan` then plans against an embedded
// emulator until ODS_URL and ODS_TOKEN name a service.
import type { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { cdktfJson, dependencySpec, DEV_DEPENDENCIES, GITIGNORE, json, ownPackage, TSCONFIG_JSON } from "../export/project";
import { EMULATOR_CONTEXT_KEY } from "./project-emulator";

const EMULATOR_DIR = ".ods/emulator";

function mainTs(packageName: string): string {
  return `// Your first ODS project: a dataset, a notifier, and a monitor that alerts the notifier
// when the dataset shows server errors. \`npx ods plan\` shows what would change,
// \`npx ods apply\` makes it so.
//
// Until ODS_URL and ODS_TOKEN are set, ods plans against an embedded emulator whose data
// lives in ${EMULATOR_DIR} (cdktf.json, context "${EMULATOR_CONTEXT_KEY}"); remove that entry
// once the project only talks to a real service.
import { App, TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import { dataset, monitor, notifier, provider } from "${packageName}";

/** Map keys and query text cannot hold references: the dataset's name, written once. */
const LOGS = "app-logs";

class ObservabilityStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    // url and token come from ODS_URL and ODS_TOKEN (or variables): never from code.
    new provider.OdsProvider(this, "ods", {});

    const logs = new dataset.Dataset(this, "logs", { name: LOGS, description: "Requests of the app" });

    const oncall = new notifier.Notifier(this, "oncall", {
      name: "app-oncall",
      properties: { email: { emails: ["oncall@example.com"] } },
    });

    new monitor.Monitor(this, "errors", {
      name: "app-server-errors",
      description: "More than 10 server errors in 5 minutes",
      type: "Threshold",
      aplQuery: \`['\${LOGS}'] | where status >= 500 | summarize count() by bin(_time, 5m)\`,
      operator: "Above",
      threshold: 10,
      intervalMinutes: 5,
      rangeMinutes: 5,
      notifierIds: [oncall.id],
      // The query names the dataset by its name: create the dataset first.
      dependsOn: [logs],
    });
  }
}

const app = new App();
new ObservabilityStack(app, "app");
app.synth();
`;
}

type PackageJson = Record<string, unknown> & {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
};

/** The project's package.json: an existing one keeps what it has, and gains what is missing. */
function packageJson(dir: string, existing: PackageJson | undefined, dependency: { spec: string; why: string }): PackageJson {
  const own = ownPackage();
  const pkg: PackageJson = existing ?? {
    name: path.basename(dir).toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[._-]+/, "") || "ods-project",
    version: "0.1.0",
    private: true,
  };
  const deps = { ...(pkg.dependencies ?? {}) };
  const kept = deps[own.name];
  deps[own.name] ??= dependency.spec;
  for (const [name, range] of Object.entries(own.peer)) deps[name] ??= range;
  const dev = { ...(pkg.devDependencies ?? {}) };
  for (const [name, range] of Object.entries(DEV_DEPENDENCIES)) if (!deps[name]) dev[name] ??= range;
  const scripts = { ...(pkg.scripts ?? {}) };
  for (const [name, command] of Object.entries({ build: "tsc", synth: "ods synth", plan: "ods plan", apply: "ods apply" })) scripts[name] ??= command;
  return {
    ...pkg,
    scripts,
    ...(kept ? {} : { "//": `${own.name} ${dependency.spec} comes from ${dependency.why}` }),
    dependencies: deps,
    devDependencies: dev,
  };
}

/** .gitignore with every line ours needs: an existing file gains the missing ones. */
function gitignore(existing: string | undefined): string {
  if (existing === undefined) return GITIGNORE;
  const have = new Set(existing.split(/\r?\n/).map((l) => l.trim()));
  const missing = GITIGNORE.split("\n").filter((l) => l !== "" && !have.has(l));
  return missing.length === 0 ? existing : `${existing.replace(/\n*$/, "\n")}${missing.join("\n")}\n`;
}

function readIfExists(file: string): string | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
}

export function registerInitCommand(program: Command): void {
  program
    .command("init [dir]")
    .description("Write a first CDKTF project (cdktf.json, tsconfig.json, package.json, main.ts, .gitignore) into DIR (default: here).")
    .option("--package-spec <spec>", "how package.json depends on this package (default: the way the running ods was installed)")
    .action((dirArg: string | undefined, o: { packageSpec?: string }) => {
      const dir = path.resolve(dirArg ?? ".");
      // The app's own files are never overwritten: a second init must not lose work.
      const taken = ["cdktf.json", "main.ts", "tsconfig.json"].filter((f) => fs.existsSync(path.join(dir, f)));
      if (taken.length > 0) throw new Error(`ods init: ${dir} already has ${taken.join(", ")}; nothing was written (init a new directory, or move them away)`);
      let existing: PackageJson | undefined;
      const pkgFile = path.join(dir, "package.json");
      const pkgText = readIfExists(pkgFile);
      if (pkgText !== undefined) {
        try {
          existing = JSON.parse(pkgText) as PackageJson;
        } catch {
          throw new Error(`ods init: ${pkgFile} is not valid JSON; nothing was written`);
        }
      }
      const own = ownPackage();
      const dependency = dependencySpec({ packageRoot: path.resolve(__dirname, "../.."), outDir: dir, name: own.name, version: own.version, given: o.packageSpec });
      const files: Record<string, string> = {
        "cdktf.json": cdktfJson(`ods-${path.basename(dir)}`, { [EMULATOR_CONTEXT_KEY]: EMULATOR_DIR }),
        "tsconfig.json": TSCONFIG_JSON,
        "package.json": json(packageJson(dir, existing, dependency)),
        "main.ts": mainTs(own.name),
        ".gitignore": gitignore(readIfExists(path.join(dir, ".gitignore"))),
      };
      fs.mkdirSync(dir, { recursive: true });
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
      const where = path.relative(process.cwd(), dir) || ".";
      process.stdout.write(
        [
          `Wrote ${Object.keys(files).join(", ")} into ${where}.`,
          `package.json depends on ${own.name} ${existing?.dependencies?.[own.name] ?? dependency.spec}${existing?.dependencies?.[own.name] ? " (as it already did)" : `: ${dependency.why}`}.`,
          "Next:",
          ...(where === "." ? [] : [`  cd ${where}`]),
          "  npm install",
          "  npx ods plan     # against an embedded emulator until ODS_URL and ODS_TOKEN are set",
          "  npx ods apply",
          "",
        ].join("\n"),
      );
    });
}
