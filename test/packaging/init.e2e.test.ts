// `ods init` from the packed tarball, as a new user takes it: install the tarball into an
// empty project (no warning about install scripts), `npx ods init`, `npm install`, the
// app type-checked with `tsc --noEmit`, then `npx ods plan` / `apply` / `plan` against the
// embedded emulator; and `ods export` from that install depends on the same tarball.
// Heavy (npm installs from the registry): it runs with ODS_CONSUMER_TEST=1
// (`npm run test:consumer`), and is skipped with the reason printed otherwise.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator";
import { output, packTarball, run, runAsync } from "./consumer-harness";

const requested = process.env.ODS_CONSUMER_TEST === "1";
if (!requested) console.warn("ods init from the tarball: skipped: set ODS_CONSUMER_TEST=1 (npm run test:consumer) to pack and install");

describe.skipIf(!requested)("ods init from the packed tarball", () => {
  let tmp: string;
  let tarball: string;
  let app: string;
  const noService = { ODS_URL: undefined, ODS_TOKEN: undefined, ODS_ORG_ID: undefined };
  const ods = (args: string[], env: NodeJS.ProcessEnv = noService) => runAsync(path.join(app, "node_modules/.bin/ods"), args, { cwd: app, env, timeoutMs: 300_000 });

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ods-init-e2e-"));
    tarball = packTarball(tmp);
    app = path.join(tmp, "app");
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, "package.json"), `${JSON.stringify({ name: "first-ods", version: "0.0.0", private: true }, null, 2)}\n`);
  }, 300_000);
  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("installs without a word about scripts, writes a project that type-checks, and plans clean against the emulator", async () => {
    const install = run("npm", ["install", "--prefer-offline", "--foreground-scripts", tarball], { cwd: app, timeoutMs: 600_000 });
    expect(install.status, output(install)).toBe(0);
    expect(install.stdout + install.stderr).not.toMatch(/prepare|postinstall|install script/i);

    const init = await ods(["init"]);
    expect(init.status, output(init)).toBe(0);
    const pkg = JSON.parse(fs.readFileSync(path.join(app, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.dependencies["cdktf-provider-ods"]).toBe(`file:../${path.basename(tarball)}`);
    expect(pkg.devDependencies.typescript).toBe("~5.8");

    const deps = run("npm", ["install", "--prefer-offline"], { cwd: app, timeoutMs: 600_000 });
    expect(deps.status, output(deps)).toBe(0);
    const tsc = run(path.join(app, "node_modules/.bin/tsc"), ["--noEmit"], { cwd: app, timeoutMs: 300_000 });
    expect(tsc.status, output(tsc)).toBe(0);

    const plan = await ods(["plan"]);
    expect(plan.status, output(plan)).toBe(0);
    expect(plan.stdout).toContain("Plan: 3 to create");
    const apply = await ods(["apply", "--auto-approve", "--no-synth"]);
    expect(apply.status, output(apply)).toBe(0);
    const again = await ods(["plan", "--no-synth", "--detailed-exitcode"]);
    expect(again.status, output(again)).toBe(0);
  }, 1_200_000);

  it("ods export from this install depends on the same tarball, and says so", async () => {
    const emu = await startEmulator({ port: 0, dataDir: path.join(tmp, "emulator") });
    try {
      const r = await ods(["export", "--out", "exported"], { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken });
      expect(r.status, output(r)).toBe(0);
      const pkg = JSON.parse(fs.readFileSync(path.join(app, "exported", "package.json"), "utf8")) as { dependencies: Record<string, string>; "//": string };
      expect(pkg.dependencies["cdktf-provider-ods"]).toBe(`file:../../${path.basename(tarball)}`);
      expect(pkg["//"]).toContain(`the tarball ${tarball}`);
    } finally {
      await emu.close();
    }
  }, 300_000);
});
