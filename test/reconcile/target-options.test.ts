// Every command that reads a stack takes the same target and variable options, and every
// refused token says where it came from (issue 54): `ods query` as `ods plan` says it, and
// `ods slo report --stack` with --var/--var-file and its stack's provider block.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runOds, tempDir, writeStacks } from "../helpers/ods-cli";
import { useRig } from "../lifecycle/helpers";

const use = useRig();

describe("a refused token", () => {
  it("ods query says which URL refused it and where the token came from, never the token", async () => {
    const flag = await runOds(["query", "['x'] | count", "--url", use.rig.emu.url, "--token", "not-a-real-token-771"]);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain(`ods query: ${use.rig.emu.url} refused the token (401`);
    expect(flag.stderr).toContain("the token came from the --token flag");
    const fromEnv = await runOds(["query", "['x'] | count"], { env: { ODS_URL: use.rig.emu.url, ODS_TOKEN: "not-a-real-token-772" } });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain("the token came from ODS_TOKEN");
    for (const r of [flag, fromEnv]) expect(r.stdout + r.stderr).not.toMatch(/not-a-real-token-77/);
  });
});

describe("ods slo report --stack", () => {
  it("takes --var and --var-file, and reads the stack's provider block with them", async () => {
    const dir = tempDir();
    const outDir = writeStacks(dir, {
      main: {
        json: {
          variable: { ods_token: { type: "string", sensitive: true } },
          provider: { ods: [{ url: use.rig.emu.url, token: "${var.ods_token}" }] },
          resource: { ods_dataset: { logs: { name: "slo-options-logs" } } },
        },
      },
    });
    const varFile = path.join(dir, "prod.tfvars");
    fs.writeFileSync(varFile, `ods_token = "${use.rig.emu.adminToken}"\n`);
    const report = await runOds(["slo", "report", "--stack", "main", "--out-dir", outDir, "--no-synth", "--var-file", varFile]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain("no SLO found among the live monitors");
    const bad = await runOds(["slo", "report", "--stack", "main", "--out-dir", outDir, "--no-synth", "--var", "ods_token=wrong-token-5521"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/ods slo report: .* refused the token \(401 .*\); the token came from var\.ods_token/);
    expect(bad.stdout + bad.stderr).not.toContain("wrong-token-5521");
  });
});
