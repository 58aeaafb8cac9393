// The provider bundle's loader (src/tfprovider/code-cache.ts): the program runs as the
// loader's module; the first start leaves V8's compiled code in the provider's private
// cache directory, the next start takes it (and leaves it as it is), a cache V8 rejects is
// written again, and nothing is read or written where the directory is not this user's
// alone or the cache is off.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const LOADER = path.join(__dirname, "../../lib/tfprovider/code-cache.js");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "code-cache-test-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A program that reports what a module sees, and whether its functions run. */
const PROGRAM = [
  "function square(x) { return x * x; }",
  "module.exports.answer = square(7);",
  'process.stdout.write(JSON.stringify({ answer: module.exports.answer, file: __filename, dir: __dirname, req: typeof require("node:path").join }));',
].join("\n");

function start(cacheDir: string, id = "0123456789abcdef"): { out: Record<string, unknown>; status: number | null } {
  const host = path.join(root, "host.js");
  fs.writeFileSync(host, `require(${JSON.stringify(LOADER)}).runCached({ source: ${JSON.stringify(PROGRAM)}, id: ${JSON.stringify(id)} }, { require, module, filename: __filename, dirname: __dirname });`);
  const r = spawnSync(process.execPath, [host], { env: { PATH: process.env.PATH, ODS_PROVIDER_CACHE_DIR: cacheDir }, encoding: "utf8", timeout: 30_000 });
  return { out: JSON.parse(r.stdout || "{}") as Record<string, unknown>, status: r.status };
}

const cacheFiles = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith("code-")) : []);

describe("the provider bundle's code cache", () => {
  it("runs the program as the loader's module and leaves its compiled code for the next start", () => {
    const dir = path.join(root, "cache");
    const first = start(dir);
    expect(first.status).toBe(0);
    expect(first.out).toEqual({ answer: 49, file: path.join(root, "host.js"), dir: root, req: "function" });
    const [file] = cacheFiles(dir);
    expect(file).toBe(`code-0123456789abcdef-${process.version}-${process.arch}.bin`);
    expect(fs.statSync(path.join(dir, file)).mode & 0o077).toBe(0);

    const written = fs.statSync(path.join(dir, file)).mtimeMs;
    const bytes = fs.readFileSync(path.join(dir, file));
    const second = start(dir);
    expect(second.out.answer).toBe(49);
    // Taken as it is: V8 accepted it, so it is not written again.
    expect(fs.statSync(path.join(dir, file)).mtimeMs).toBe(written);
    expect(fs.readFileSync(path.join(dir, file)).equals(bytes)).toBe(true);
  });

  it("writes again a cache V8 rejects, and runs the program all the same", () => {
    const dir = path.join(root, "rejected");
    fs.mkdirSync(dir, { mode: 0o700 });
    const file = path.join(dir, `code-0123456789abcdef-${process.version}-${process.arch}.bin`);
    fs.writeFileSync(file, "not V8's code");
    expect(start(dir).out.answer).toBe(49);
    expect(fs.readFileSync(file, "utf8")).not.toBe("not V8's code");
  });

  it("keeps one build's cache apart from another's", () => {
    const dir = path.join(root, "builds");
    start(dir, "aaaaaaaaaaaaaaaa");
    start(dir, "bbbbbbbbbbbbbbbb");
    expect(cacheFiles(dir).sort()).toEqual([`code-aaaaaaaaaaaaaaaa-${process.version}-${process.arch}.bin`, `code-bbbbbbbbbbbbbbbb-${process.version}-${process.arch}.bin`]);
  });

  it.skipIf(process.platform === "win32")("neither reads nor writes a directory others may write, nor when the cache is off", () => {
    const open = path.join(root, "open");
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o777);
    const planted = path.join(open, `code-0123456789abcdef-${process.version}-${process.arch}.bin`);
    fs.writeFileSync(planted, "planted");
    expect(start(open).out.answer).toBe(49);
    expect(fs.readFileSync(planted, "utf8")).toBe("planted");
    expect(start("off").out.answer).toBe(49);
    expect(fs.existsSync(path.resolve("off"))).toBe(false);
  });
});
