// The files `ods export` writes: a ready-to-run CDKTF project (cdktf.json, package.json,
// tsconfig.json, main.ts and the construct class in its own file), only the construct
// class (--module), or a Terraform JSON configuration (--format tf-json).
import * as fs from "node:fs";
import * as path from "node:path";
import type { OrgExport } from "./export-model";
import { renderTfJson } from "./write-tf-json";
import { renderConstructModule, renderMain, type TypeScriptNames } from "./write-typescript";

export interface ProjectOptions extends TypeScriptNames {
  /** The dependency on this package, as package.json writes it ("^0.1.0", "file:../cdktf-provider-ods"). */
  packageSpec: string;
  /** Why that dependency, for a "//" note beside it in package.json. */
  packageSpecWhy?: string;
}

export interface DependencySpec {
  spec: string;
  /** In words, where it comes from: the exported project says so in package.json. */
  why: string;
}

function fileSpec(target: string, from: string): string {
  const rel = path.relative(from, target).split(path.sep).join("/");
  return `file:${rel.startsWith(".") ? rel : `./${rel}`}`;
}

/**
 * How the exported project depends on this package: the way the project running `ods`
 * installed it. A package under PROJECT/node_modules takes PROJECT/package.json's spec (a
 * tarball path, rewritten relative to the new project, or a registry range); run from a
 * checkout, the checkout itself (a directory dependency). A version alone would install
 * only once that version is on the registry.
 */
export function dependencySpec(opts: { packageRoot: string; outDir: string; name: string; version: string; given?: string }): DependencySpec {
  if (opts.given) return { spec: opts.given, why: "as given with --package-spec" };
  const parent = path.dirname(opts.packageRoot);
  const modules = path.basename(parent) === "node_modules" ? parent : path.basename(path.dirname(parent)) === "node_modules" ? path.dirname(parent) : undefined;
  if (modules) {
    const project = path.dirname(modules);
    let declared: string | undefined;
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
      declared = pkg.dependencies?.[opts.name] ?? pkg.devDependencies?.[opts.name];
    } catch {
      declared = undefined;
    }
    if (declared?.startsWith("file:")) {
      const target = path.resolve(project, declared.slice("file:".length));
      return { spec: fileSpec(target, opts.outDir), why: `the tarball ${target}, which ${path.join(project, "package.json")} installs it from` };
    }
    if (declared) return { spec: declared, why: `the registry, as ${path.join(project, "package.json")} installs it (${declared})` };
    return { spec: `^${opts.version}`, why: `the registry: version ${opts.version} is installed in ${modules} but no package.json there names it` };
  }
  return {
    spec: fileSpec(opts.packageRoot, opts.outDir),
    why: `this checkout of ${opts.name} (${opts.packageRoot}), linked as a directory: ${opts.version} is not installed from a registry here; pass --package-spec for another source`,
  };
}

/** This package's name and version, for the exported project's dependency. */
export function ownPackage(): { name: string; version: string; peer: Record<string, string> } {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as {
    name: string;
    version: string;
    peerDependencies?: Record<string, string>;
  };
  return { name: pkg.name, version: pkg.version, peer: pkg.peerDependencies ?? {} };
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** cdktf.json of a TypeScript project compiled by its own tsc into dist/. */
export function cdktfJson(projectId: string, context: Record<string, unknown>): string {
  return json({ language: "typescript", app: "npx tsc && node dist/main.js", projectId, sendCrashReports: "false", terraformProviders: [], terraformModules: [], context });
}

/** Strict TypeScript, CommonJS, the app's *.ts files compiled into dist/. */
export const TSCONFIG_JSON = json({
  compilerOptions: {
    target: "ES2022",
    module: "commonjs",
    moduleResolution: "node",
    lib: ["ES2022"],
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    outDir: "dist",
    rootDir: ".",
    types: ["node"],
  },
  include: ["*.ts"],
});

/**
 * Kept out of git: dependencies, build output, synthesized stacks, the local emulator's
 * data, and state (cdktf's local backend writes terraform.STACK.tfstate beside cdktf.json;
 * it holds token secrets).
 */
export const GITIGNORE = ["node_modules/", "dist/", "cdktf.out/", ".ods/", "*.tfstate", "*.tfstate.*", ".terraform.*.lock.info", ".terraform/", ""].join("\n");

/** The development dependencies of such a project: the compiler it runs, Node's types. */
export const DEV_DEPENDENCIES = { "@types/node": "^20", typescript: "~5.8" };

/** Every file of the project, by path relative to the output directory. */
export function projectFiles(exp: OrgExport, opts: ProjectOptions): Record<string, string> {
  const own = ownPackage();
  return {
    "cdktf.json": cdktfJson(`ods-export-${opts.stackName}`, {}),
    "package.json": json({
      name: `ods-${opts.stackName}`,
      version: "0.1.0",
      private: true,
      description: "An ODS organization as code, written by `ods export`.",
      scripts: { build: "tsc", synth: "ods synth", plan: "ods plan", apply: "ods apply" },
      ...(opts.packageSpecWhy ? { "//": `${own.name} ${opts.packageSpec} comes from ${opts.packageSpecWhy}` } : {}),
      dependencies: { [own.name]: opts.packageSpec, ...own.peer },
      devDependencies: DEV_DEPENDENCIES,
    }),
    "tsconfig.json": TSCONFIG_JSON,
    ".gitignore": GITIGNORE,
    "main.ts": renderMain(exp, opts),
    [`${opts.moduleName}.ts`]: renderConstructModule(exp, opts),
  };
}

export function writeFiles(dir: string, files: Record<string, string>): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    written.push(file);
  }
  return written;
}

export { renderConstructModule, renderTfJson };
