// Bad input to `ods export` and `ods compare`: a clear error naming what was expected,
// nothing written, and never a token on the command line.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";

afterAll(() => removeTempDirs());

describe("ods export and ods compare: bad input", () => {
  it("export names the unknown kind and writes nothing", async () => {
    const dir = tempDir("ods-export-bad-");
    const r = await runOds(["export", "--out", path.join(dir, "p"), "--kinds", "notifier,widget"], {
      env: { ODS_URL: "http://127.0.0.1:9", ODS_TOKEN: "odst_not-used-1234" },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--kinds: unknown kind "widget"; kinds: dataset, dataset_field, virtual_field`);
    expect(fs.existsSync(path.join(dir, "p"))).toBe(false);
  });

  it("export needs a place to write, and --adopt the whole project", async () => {
    expect((await runOds(["export"], { env: { ODS_TOKEN: "x" } })).stderr).toContain("ods export needs --out DIR (a project) or --module FILE");
    const adopt = await runOds(["export", "--module", "org.ts", "--adopt"], { env: { ODS_TOKEN: "x" } });
    expect(adopt.stderr).toContain("--adopt needs the whole project (--out DIR)");
  });

  it("compare reads tokens only from the environment variables it is told", async () => {
    const r = await runOds(["compare", "--from", "http://127.0.0.1:9", "--to", "http://127.0.0.1:9", "--from-token-env", "STAGING_TOKEN"], {
      env: { STAGING_TOKEN: undefined },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no token: set the environment variable STAGING_TOKEN (tokens are never taken from the command line)");
    const flag = await runOds(["compare", "--from", "a", "--to", "b", "--token", "odst_secret"], {});
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("unknown option '--token'");
  });
});
