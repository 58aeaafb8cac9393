// The start of the provider bundle: the program (the rest of the bundle, held as a string)
// is compiled with V8's code cache. Terraform starts the provider three or four times per
// command, and compiling the ~1 MB bundle costs each start tens of milliseconds; with the
// cache, V8 reads the compiled code instead. Node 20 (the oldest Node the package
// supports) has no module compile cache (`module.enableCompileCache` came in 22.1), so
// this uses `vm.Script`'s `cachedData`, which every supported version has.
//
// The cache is a file per bundle build, Node version and architecture in the provider's
// private cache directory (provider-cache-dir.ts: this user's alone, since V8 runs what it
// finds there). A start that found no cache, or one V8 rejected, writes it when the
// process exits: by then the functions the start ran are compiled too, and the cache
// holds them. Every failure falls back to compiling: the cache is never needed.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vm from "node:vm";
import { providerCacheDir } from "./provider-cache-dir";

export interface BundledProgram {
  /** A CommonJS program's text. */
  readonly source: string;
  /** What tells one build from another (a digest of the source, made at build time). */
  readonly id: string;
}

/** What the program sees as its module: the loader's own. */
export interface ModuleHost {
  readonly require: NodeJS.Require;
  readonly module: NodeJS.Module;
  readonly filename: string;
  readonly dirname: string;
}

type CommonJsBody = (exports: unknown, require: NodeJS.Require, module: NodeJS.Module, filename: string, dirname: string) => void;

function cacheFile(id: string): string | undefined {
  const dir = providerCacheDir();
  // The id is the build's digest; anything else in it would name another file.
  return dir && /^[0-9a-f]{8,64}$/.test(id) ? path.join(dir, `code-${id}-${process.version}-${process.arch}.bin`) : undefined;
}

function readCache(file: string | undefined): Buffer | undefined {
  if (!file) return undefined;
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Caches of other builds are removed a week after they were written (a cache still in use is written again once). */
const STALE_CACHE_MS = 7 * 24 * 3600_000;

/**
 * Written whole under another name, then renamed: a start reading at the same time sees
 * the old file or the new, never half. Each build leaves a file of about 0.6 MB, so the
 * old ones go when a new one is written.
 */
function writeCache(file: string, script: vm.Script): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(temp, file);
    const dir = path.dirname(file);
    for (const name of fs.readdirSync(dir)) {
      const other = path.join(dir, name);
      if (!/^code-.*\.bin$/.test(name) || other === file) continue;
      if (Date.now() - fs.statSync(other).mtimeMs > STALE_CACHE_MS) fs.rmSync(other, { force: true });
    }
  } catch {
    fs.rmSync(temp, { force: true });
  }
}

/** Set (on globalThis) when this process writes the cache at exit; the program may read it (codeCacheWrittenAtExit). */
const WRITES_AT_EXIT = Symbol.for("ods.provider.codeCacheWrittenAtExit");

/**
 * Whether this process writes the code cache when it exits: then the cache holds what the
 * process compiled, and a start that skips work (the model a schema-only start need not
 * load) would leave that work out of the cache for every start after it.
 */
export function codeCacheWrittenAtExit(): boolean {
  return (globalThis as Record<symbol, unknown>)[WRITES_AT_EXIT] === true;
}

/** Compiles the program (from the cache when there is a usable one) and runs it as the host's module. */
export function runCached(program: BundledProgram, host: ModuleHost): void {
  const file = cacheFile(program.id);
  const cachedData = readCache(file);
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${program.source}\n})`, { filename: host.filename, cachedData });
  if (file && (cachedData === undefined || script.cachedDataRejected)) {
    (globalThis as Record<symbol, unknown>)[WRITES_AT_EXIT] = true;
    process.once("exit", () => writeCache(file, script));
  }
  const body = script.runInThisContext() as CommonJsBody;
  body.call(host.module.exports, host.module.exports, host.require, host.module, host.filename, host.dirname);
}
