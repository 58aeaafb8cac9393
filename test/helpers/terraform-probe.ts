// Whether the real `terraform` binary is here for the tests that drive it. A developer
// without it gets those tests skipped, with the reason printed; CI (.ci/run sets
// ODS_REQUIRE_TERRAFORM=1) gets an error instead, so a runner that lost terraform cannot
// pass by skipping them.
import { spawnSync } from "node:child_process";
import * as os from "node:os";

const probe = spawnSync("terraform", ["version"], { cwd: os.tmpdir(), encoding: "utf8", timeout: 30_000, env: { ...process.env, CHECKPOINT_DISABLE: "1" } });

/** Why terraform cannot run here; undefined when it can. */
export const terraformMissing: string | undefined =
  probe.status === 0 ? undefined : probe.error ? `\`terraform\` is not on PATH (${probe.error.message})` : `\`terraform version\` failed: ${String(probe.stderr).trim()}`;

if (terraformMissing && process.env.ODS_REQUIRE_TERRAFORM === "1") {
  throw new Error(`ODS_REQUIRE_TERRAFORM=1 and terraform cannot run: ${terraformMissing}. Install Terraform 1.11 on this runner.`);
}
if (terraformMissing) console.warn(`terraform tests skipped: ${terraformMissing} (install Terraform 1.11 to run them)`);

export const hasTerraform = terraformMissing === undefined;
