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

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Every file of the project, by path relative to the output directory. */
export function projectFiles(exp: OrgExport, opts: ProjectOptions): Record<string, string> {
  const own = ownPackage();
  return {
    "cdktf.json": json({
      language: "typescript",
      app: "npx tsc && node dist/main.js",
      projectId: `ods-export-${opts.stackName}`,
      sendCrashReports: "false",
      terraformProviders: [],
      terraformModules: [],
      context: {},
    }),
    "package.json": json({
      name: `ods-${opts.stackName}`,
      version: "0.1.0",
      private: true,
      description: "An ODS organization as code, written by `ods export`.",
      scripts: { build: "tsc", synth: "ods synth", plan: "ods plan", apply: "ods apply" },
      dependencies: { [own.name]: opts.packageSpec, ...own.peer },
      devDependencies: { "@types/node": "^20", typescript: "~5.8" },
    }),
    "tsconfig.json": json({
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
    }),
    ".gitignore": "node_modules/\ndist/\ncdktf.out/\n.ods/\n",
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
