// Environments in practice, end to end: the construct class of examples/environments as
// staging (`stg-`) and production (`prod-`), each against its own emulator with its own
// credentials, planned and applied by one `--all-stacks` command with per-stack variable
// files, then compared across the prefixes after one threshold was changed by hand.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { ROOT, leakedSecrets, removeTempDirs, runOds, tempDir, type RunResult } from "../helpers/ods-cli";

const ENVS = { staging: "stg", production: "prod" } as const;
type Env = keyof typeof ENVS;
const PAGER = { staging: "stg-pager-51ac9e", production: "prod-pager-0d7f3b" };

const emus: Partial<Record<Env, EmulatorHandle>> = {};
const outputs: string[] = [];
let dir: string;

/** The app: the example's stack class twice, alike but for the prefix (what compare must see through). */
function writeApp(at: string): void {
  const req = (p: string): string => `require(${JSON.stringify(p)})`;
  fs.writeFileSync(
    path.join(at, "main.js"),
    [
      `const { App } = ${req(path.join(ROOT, "node_modules/cdktf"))};`,
      `const { EnvironmentStack } = ${req(path.join(ROOT, "examples/environments/observability.js"))};`,
      `const app = new App();`,
      `const same = { oncallEmails: ["oncall@example.com"], pagerChannel: "#checkout", slowMs: 1000, errorThreshold: 10, tokenGracePeriod: "1h" };`,
      ...Object.entries(ENVS).map(([stack, prefix]) => `new EnvironmentStack(app, ${JSON.stringify(stack)}, { ...same, prefix: ${JSON.stringify(prefix)} });`),
      `app.synth();`,
    ].join("\n"),
  );
}

/** One var file per stack (its target and token) and one for all (nothing secret shared here but the pager's channel bot). */
function writeVarFiles(at: string, token: (env: Env) => string, url: (env: Env) => string = (e) => emus[e]!.url): string[] {
  const flags: string[] = [];
  for (const env of Object.keys(ENVS) as Env[]) {
    const file = path.join(at, `${env}.json`);
    fs.writeFileSync(file, JSON.stringify({ ods_url: url(env), ods_token: token(env), pager_chat_b_token: PAGER[env] }));
    flags.push("--var-file", `${env}=${file}`);
  }
  return flags;
}

async function ods(args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  const r = await runOds(args[0] === "compare" || args[0] === "export" ? args : [...args, "--out-dir", path.join(dir, "cdktf.out")], { cwd: dir, env: { ODS_URL: undefined, ODS_TOKEN: undefined, ...env }, timeoutMs: 120_000 });
  outputs.push(r.stdout, r.stderr);
  return r;
}

beforeAll(async () => {
  dir = tempDir("ods-env-practice-");
  for (const env of Object.keys(ENVS) as Env[]) emus[env] = await startEmulator({ port: 0, dataDir: tempDir(`ods-emu-${env}-`) });
  writeApp(dir);
  const synth = await runOds(["synth", "--app", "node main.js", "--out", path.join(dir, "cdktf.out")], { cwd: dir });
  expect(synth.code, synth.stderr).toBe(0);
});
afterAll(async () => {
  for (const emu of Object.values(emus)) await emu?.close();
  removeTempDirs();
});

describe("two environments, one command", () => {
  it("plans both with one markdown comment, applies both, and compare --map sees exactly the one threshold changed by hand", async () => {
    const vars = writeVarFiles(dir, (e) => emus[e]!.adminToken);
    const plan = await ods(["plan", "--all-stacks", "--format", "markdown", "--no-synth", ...vars]);
    expect(plan.code, plan.stderr).toBe(0);
    // One comment: one heading, a section per stack naming its own target.
    expect(plan.stdout.match(/^## ods plan$/gm)).toHaveLength(1);
    for (const env of Object.keys(ENVS) as Env[]) {
      const section = plan.stdout.slice(plan.stdout.indexOf(`### Stack \`${env}\``));
      expect(section).toContain(`- Target \`ods\`: ${emus[env]!.url}, organization`);
      expect(section).toMatch(/\*\*Plan:\*\* 7 to create/);
    }

    const apply = await ods(["apply", "--all-stacks", "--auto-approve", "--no-synth", ...vars]);
    expect(apply.code, apply.stderr).toBe(0);
    const admin = (env: Env): OdsClient => new OdsClient({ url: emus[env]!.url, token: emus[env]!.adminToken });
    const stg = admin("staging");
    const prod = admin("production");
    try {
      expect((await stg.listDatasets()).map((d) => d.name)).toEqual(["stg-checkout-logs"]);
      expect((await prod.listDatasets()).map((d) => d.name)).toEqual(["prod-checkout-logs"]);
      const again = await ods(["plan", "--all-stacks", "--detailed-exitcode", "--no-synth", ...vars]);
      expect(again.code, again.stdout + again.stderr).toBe(0);

      const compare = (): Promise<RunResult> =>
        ods(["compare", "--from", emus.staging!.url, "--to", emus.production!.url, "--from-token-env", "STG", "--to-token-env", "PROD", "--map", "stg-=prod-"], {
          STG: emus.staging!.adminToken,
          PROD: emus.production!.adminToken,
        });
      const same = await compare();
      expect(same.code, same.stdout + same.stderr).toBe(0);
      expect(same.stdout).toContain(`= ods_dataset "prod-checkout-logs" (--from "stg-checkout-logs", by stg-=prod-)`);
      expect(same.stdout).toContain(`= ods_role "prod-checkout-readers" (--from "stg-checkout-readers", by stg-=prod-)`);
      expect(same.stdout).toContain(`= ods_monitor "prod-checkout-errors" (--from "stg-checkout-errors", by stg-=prod-)`);
      expect(same.stdout).toMatch(/No differences: 7 objects compared .*\. 7 matched \(7 by stg-=prod-\), 0 differing, 0 only in --from, 0 only in --to\./);

      // By hand, in production only: the alert threshold of the error monitor.
      const errors = (await prod.listMonitors()).find((m) => m.name === "prod-checkout-errors")!;
      // The service answers zeros for the anomaly settings a Threshold monitor has none of.
      const { id, createdAt: _c, updatedAt: _u, compareDays: _d, tolerance: _t, ...body } = errors;
      await prod.updateMonitor(id, { ...body, threshold: 25 });

      const one = await compare();
      expect(one.code).toBe(2);
      const changed = one.stdout.split("\n").filter((l) => /^ {2}[~+-] /.test(l));
      expect(changed).toEqual([`  ~ ods_monitor "prod-checkout-errors" (--from "stg-checkout-errors", by stg-=prod-):`]);
      expect(one.stdout).toContain(`      threshold: 10 -> 25`);
      expect(one.stdout).toMatch(/1 objects differ; 7 found on both sides .*7 matched \(7 by stg-=prod-\), 1 differing, 0 only in --from, 0 only in --to\./);
      // Left out on purpose, it is no difference.
      const ignored = await ods(["compare", "--from", emus.staging!.url, "--to", emus.production!.url, "--from-token-env", "STG", "--to-token-env", "PROD", "--map", "stg-=prod-", "--ignore", "ods_monitor.threshold"], {
        STG: emus.staging!.adminToken,
        PROD: emus.production!.adminToken,
      });
      expect(ignored.code, ignored.stdout).toBe(0);

      // The same renaming written into code: production's organization as staging's construct class.
      const module = path.join(dir, "from-prod.ts");
      const exported = await ods(["export", "--module", module, "--url", emus.production!.url, "--token-env", "PROD", "--map", "prod-=stg-", "--class-name", "Staging"], {
        PROD: emus.production!.adminToken,
      });
      expect(exported.code, exported.stderr).toBe(0);
      const code = fs.readFileSync(module, "utf8");
      expect(code).toContain(`"stg-checkout-logs"`);
      expect(code).toContain(`['stg-checkout-logs'] | where status >= 500`);
      expect(code).toContain("threshold: 25");
      expect(code).not.toContain("prod-");
    } finally {
      await stg.close();
      await prod.close();
    }
  }, 240_000);

  it("with the state lost and two live objects of one name, the suggested import command works as printed", async () => {
    const prod = new OdsClient({ url: emus.production!.url, token: emus.production!.adminToken });
    try {
      const twin = await prod.createNotifier({ name: "prod-oncall", properties: { email: { emails: ["someone@example.com"] } } });
      fs.rmSync(path.join(dir, "terraform.production.tfstate"));
      // The environment a user would have: production's target from TF_VAR_*, and cdktf.json.
      const env = { TF_VAR_ods_url: emus.production!.url, TF_VAR_ods_token: emus.production!.adminToken, TF_VAR_pager_chat_b_token: PAGER.production };
      fs.writeFileSync(path.join(dir, "cdktf.json"), JSON.stringify({ language: "javascript", app: "node main.js" }));
      const plan = await runOds(["plan", "--stack", "production"], { cwd: dir, env: { ODS_URL: undefined, ODS_TOKEN: undefined, ...env }, timeoutMs: 120_000 });
      outputs.push(plan.stdout, plan.stderr);
      expect(plan.code).toBe(1);
      const suggested = [...plan.stderr.matchAll(/"(ods import --stack production (ods_notifier\.\S+) (\S+))"/g)];
      expect(suggested.map((m) => m[3]).sort()).toEqual([(await prod.listNotifiers()).find((n) => n.name === "prod-oncall" && n.id !== twin.id)!.id, twin.id].sort());
      const [, command, address, id] = suggested.find((m) => m[3] === twin.id)!;
      const imported = await runOds(command.split(" ").slice(1), { cwd: dir, env: { ODS_URL: undefined, ODS_TOKEN: undefined, ...env }, timeoutMs: 120_000 });
      outputs.push(imported.stdout, imported.stderr);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain(`Imported ${address} (id ${id}).`);
    } finally {
      await prod.close();
    }
  }, 240_000);

  it("a refused token names the stack, the provider and the variable it came from, never its value", async () => {
    const wrong = "ods_wrong_token_7f3a9c";
    const vars = writeVarFiles(dir, (e) => (e === "production" ? wrong : emus[e]!.adminToken));
    const r = await ods(["plan", "--all-stacks", "--no-synth", ...vars]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`stack production, provider ods: ${emus.production!.url} refused the token (401`);
    expect(r.stderr).toContain(`the token came from var.ods_token (from ${path.join(dir, "production.json")} (for stack production))`);
    expect(r.stdout + r.stderr).not.toContain(wrong);

    const env = await ods(["plan", "--stack", "staging", "--no-synth", "--var", "staging:ods_url=" + emus.staging!.url, "--var", "staging:pager_chat_b_token=x"], { TF_VAR_ods_token: wrong });
    expect(env.stderr).toContain("the token came from var.ods_token (from TF_VAR_ods_token)");
    expect(env.stdout + env.stderr).not.toContain(wrong);

    const compare = await ods(["compare", "--from", emus.staging!.url, "--to", emus.production!.url, "--from-token-env", "STG", "--to-token-env", "PROD"], {
      STG: emus.staging!.adminToken,
      PROD: wrong,
    });
    expect(compare.code).toBe(1);
    expect(compare.stderr).toContain(`--to: ${emus.production!.url} refused the token (401`);
    expect(compare.stderr).toContain("the token came from the environment variable PROD (--to-token-env)");
    expect(compare.stdout + compare.stderr).not.toContain(wrong);
  }, 120_000);

  it("a port nobody listens on fails at once, naming the URL", async () => {
    const closed = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-closed-") });
    const url = closed.url;
    await closed.close();
    const vars = writeVarFiles(dir, (e) => emus[e]!.adminToken, (e) => (e === "production" ? url : emus[e]!.url));
    const r = await ods(["plan", "--all-stacks", "--no-synth", ...vars]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`stack production, provider ods: cannot reach ${url}: could not connect (ECONNREFUSED`);
  }, 120_000);

  it("a per-stack value for a stack that does not exist, or a variable it does not declare, is an error before anything is read", async () => {
    const unknownStack = await ods(["plan", "--all-stacks", "--no-synth", "--var", "prodution:ods_url=http://x"]);
    expect(unknownStack.code).toBe(1);
    expect(unknownStack.stderr).toContain(`--var prodution:ods_url=...: no stack "prodution"; stacks: production, staging`);
    const unknownVar = await ods(["plan", "--all-stacks", "--no-synth", ...writeVarFiles(dir, (e) => emus[e]!.adminToken), "--var", "staging:ods_urll=http://x"]);
    expect(unknownVar.code).toBe(1);
    expect(unknownVar.stderr).toContain(`--var staging:ods_urll=...: stack staging declares no variable "ods_urll"`);
  }, 120_000);

  it("no secret value reached any output", () => {
    expect(leakedSecrets(outputs, [...Object.values(PAGER), ...Object.values(emus).map((e) => e!.adminToken)])).toEqual([]);
  });
});
