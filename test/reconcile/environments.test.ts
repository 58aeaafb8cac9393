// Environments end to end: several organizations (one emulator each, over real HTTP),
// provider aliases, several stacks, variables and the state's organization record.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { stateOrganization } from "../../src/reconcile/state";
import { leakedSecrets, readStateFile, removeTempDirs, runOds, tempDir, writeStacks, type RunResult } from "../helpers/ods-cli";

interface Org {
  emu: EmulatorHandle;
  admin: OdsClient;
}
let A: Org;
let B: Org;
let C: Org;

async function org(): Promise<Org> {
  const emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  return { emu, admin: new OdsClient({ url: emu.url, token: emu.adminToken }) };
}

beforeAll(async () => {
  [A, B, C] = await Promise.all([org(), org(), org()]);
});
afterAll(async () => {
  for (const o of [A, B, C]) {
    await o.admin.close();
    await o.emu.close();
  }
  removeTempDirs();
});

const meta = (p: string): { "//": { metadata: { path: string } } } => ({ "//": { metadata: { path: p } } });
/** The data block of a cdktf cross-stack reference to the staging stack's outputs. */
const READS_STAGING = {
  terraform_remote_state: {
    "cross-stack-reference-input-staging": { backend: "local", config: { path: "../terraform.staging.tfstate" }, workspace: "${terraform.workspace}" },
  },
};
const writes = (o: Org): unknown[] => o.emu.requests().filter((r) => r.method !== "GET");

function ods(dir: string, args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  return runOds([...args, "--out-dir", path.join(dir, "cdktf.out"), "--no-synth"], { cwd: dir, env, timeoutMs: 90_000 });
}

describe("targets", () => {
  it("writes each resource to the organization of the provider configuration it names; a leftover ODS_URL redirects nothing", async () => {
    const dir = tempDir();
    writeStacks(dir, {
      app: {
        json: {
          provider: {
            ods: [
              { alias: "a", url: A.emu.url, token: A.emu.adminToken },
              { alias: "b", url: B.emu.url, token: B.emu.adminToken },
            ],
          },
          resource: {
            ods_dataset: {
              left: { ...meta("app/left"), name: "env-left", provider: "ods.a", allow_destroy: true },
              right: { ...meta("app/right"), name: "env-right", provider: "ods.b", allow_destroy: true },
            },
            // A reference from one organization's object to another's: applied after it.
            ods_role: { r: { ...meta("app/r"), name: "env-role", description: "reads ${ods_dataset.left.name}", provider: "ods.b" } },
          },
        },
      },
    });
    for (const o of [A, B, C]) o.emu.resetRequests();
    const leftover = { ODS_URL: C.emu.url, ODS_TOKEN: C.emu.adminToken };
    const plan = await ods(dir, ["plan", "--detailed-exitcode"], leftover);
    expect(plan.code, plan.stderr).toBe(2);
    const head = plan.stdout.split("\n").slice(0, 2);
    expect(head[0]).toBe(`Target of stack app, provider ods.a: ${A.emu.url}, organization "ODS Emulator" (id ${A.emu.orgId})`);
    expect(head[1]).toBe(`Target of stack app, provider ods.b: ${B.emu.url}, organization "ODS Emulator" (id ${B.emu.orgId})`);
    expect(plan.stdout).not.toContain(C.emu.adminToken);

    const apply = await ods(dir, ["apply", "--auto-approve"], leftover);
    expect(apply.code, apply.stderr).toBe(0);
    expect((await A.admin.listDatasets()).map((d) => d.name)).toContain("env-left");
    expect((await A.admin.listDatasets()).map((d) => d.name)).not.toContain("env-right");
    expect((await B.admin.listDatasets()).map((d) => d.name)).toContain("env-right");
    expect((await B.admin.listRoles()).find((r) => r.name === "env-role")?.description).toBe("reads env-left");
    expect(writes(C)).toEqual([]);

    // One state (Terraform's format, cdktf's default path): each instance names its provider configuration and its organization.
    const state = readStateFile(path.join(dir, "terraform.app.tfstate"));
    expect(state.resources["ods_dataset.left"].provider).toBe(`provider["registry.terraform.io/ods/ods"].a`);
    expect(state.resources["ods_role.r"].provider).toBe(`provider["registry.terraform.io/ods/ods"].b`);
    expect(stateOrganization(state, "ods.a")?.id).toBe(A.emu.orgId);
    expect(stateOrganization(state, "ods.b")?.id).toBe(B.emu.orgId);

    expect((await ods(dir, ["plan", "--detailed-exitcode"], leftover)).code).toBe(0);
    const flags = await ods(dir, ["plan", "--url", C.emu.url]);
    expect(flags.code).toBe(1);
    expect(flags.stderr).toMatch(/has 2 provider configurations \(ods\.a, ods\.b\): --url, --token and --org-id apply only to a stack with one/);

    const destroy = await ods(dir, ["destroy", "--auto-approve"], leftover);
    expect(destroy.code, destroy.stderr).toBe(0);
    expect((await B.admin.listRoles()).some((r) => r.name === "env-role")).toBe(false);
    expect((await A.admin.listDatasets()).some((d) => d.name === "env-left")).toBe(false);
    expect(writes(C)).toEqual([]);
  }, 180_000);

  it("a reference to an object another configuration replaces is known only after apply: the referring object is updated to the new id", async () => {
    const dir = tempDir();
    const stackWith = (email: string): Record<string, unknown> => ({
      provider: { ods: [{ url: A.emu.url, token: A.emu.adminToken }, { alias: "b", url: A.emu.url, token: A.emu.adminToken }] },
      resource: {
        ods_dataset: { d: { ...meta("app/d"), name: "xref-ds", allow_destroy: true } },
        ods_user: { u: { ...meta("app/u"), name: "Xref", email, role: "admin" } },
        ods_starred_query: {
          q: { ...meta("app/q"), provider: "ods.b", name: "xref-q", dataset: "${ods_dataset.d.name}", kind: "apl", who: "${ods_user.u.id}", query: { apl: "['xref-ds'] | take 1" } },
        },
      },
    });
    writeStacks(dir, { app: { json: stackWith("xref-1@example.com") } });
    const first = await ods(dir, ["apply", "--auto-approve"]);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    // A new e-mail replaces the user (provider ods); the query (provider ods.b) names it.
    writeStacks(dir, { app: { json: stackWith("xref-2@example.com") } });
    const plan = await ods(dir, ["plan"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/ods_starred_query\.q will be updated in place/);
    expect(plan.stdout).toMatch(/who = "usr_\w+" -> \(known after apply\)/);
    const apply = await ods(dir, ["apply", "--auto-approve"]);
    expect(apply.code, apply.stderr).toBe(0);
    const user = (await A.admin.listUsers()).find((u) => u.email === "xref-2@example.com");
    const query = (await A.admin.listStarredQueries({ who: "all" })).find((q) => q.name === "xref-q");
    expect(query?.who).toBe(user?.id);
    expect((await ods(dir, ["plan", "--detailed-exitcode"])).code).toBe(0);
    expect((await ods(dir, ["destroy", "--auto-approve"])).code).toBe(0);
  });

  it("keeps an object whose resource moves to another provider configuration of its organization, as Terraform does", async () => {
    const dir = tempDir();
    const stackWith = (provider: string): Record<string, unknown> => ({
      provider: { ods: [{ url: A.emu.url, token: A.emu.adminToken }, { alias: "b", url: A.emu.url, token: A.emu.adminToken }] },
      resource: { ods_notifier: { n: { ...meta("app/n"), name: "moved-n", provider, properties: { webhook: { url: "https://h.example.com/m" } } } } },
    });
    writeStacks(dir, { app: { json: stackWith("ods.b") } });
    expect((await ods(dir, ["apply", "--auto-approve"])).code).toBe(0);
    const id = (await A.admin.listNotifiers()).find((n) => n.name === "moved-n")?.id;
    expect(id).toBeDefined();

    writeStacks(dir, { app: { json: stackWith("ods") } });
    const plan = await ods(dir, ["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const apply = await ods(dir, ["apply", "--auto-approve"]);
    expect(apply.code, apply.stderr).toBe(0);
    expect((await A.admin.listNotifiers()).filter((n) => n.name === "moved-n").map((n) => n.id)).toEqual([id]);
    const state = readStateFile(path.join(dir, "terraform.app.tfstate"));
    expect(state.resources["ods_notifier.n"].id).toBe(id);
    expect((await ods(dir, ["destroy", "--auto-approve"])).code).toBe(0);
  });

  it("refuses state made for another organization, with zero writes", async () => {
    const dir = tempDir();
    writeStacks(dir, { app: { json: { provider: { ods: [{}] }, resource: { ods_notifier: { n: { ...meta("app/n"), name: "org-check", properties: { webhook: { url: "https://h.example.com/x" } } } } } } } });
    const toA = { ODS_URL: A.emu.url, ODS_TOKEN: A.emu.adminToken };
    expect((await ods(dir, ["apply", "--auto-approve"], toA)).code).toBe(0);
    const stateFile = path.join(dir, "terraform.app.tfstate");
    const before = fs.readFileSync(stateFile, "utf8");
    B.emu.resetRequests();
    const toB = { ODS_URL: B.emu.url, ODS_TOKEN: B.emu.adminToken };
    for (const command of [["apply", "--auto-approve"], ["destroy", "--auto-approve"]]) {
      const r = await ods(dir, command, toB);
      expect(r.code, command.join(" ")).toBe(1);
      expect(r.stderr).toContain(`belongs to organization "ODS Emulator" (id ${A.emu.orgId}) for provider ods, but the target ${B.emu.url} is organization "ODS Emulator" (id ${B.emu.orgId}). Nothing was changed`);
    }
    expect(writes(B)).toEqual([]);
    expect(fs.readFileSync(stateFile, "utf8")).toBe(before);
    expect((await ods(dir, ["destroy", "--auto-approve"], toA)).code).toBe(0);
  });
});

describe("several stacks", () => {
  const stacks = (): Parameters<typeof writeStacks>[1] => ({
    // Listed first, but it reads staging's output: it runs second.
    production: {
      dependencies: ["staging"],
      json: {
        provider: { ods: [{ url: B.emu.url, token: B.emu.adminToken }] },
        data: READS_STAGING,
        resource: {
          ods_dataset: { logs: { ...meta("production/logs"), name: "prod-logs", allow_destroy: true } },
          ods_role: {
            mirror: {
              ...meta("production/mirror"),
              name: "mirror-of-staging",
              description: "${data.terraform_remote_state.cross-stack-reference-input-staging.outputs.cross-stack-output-ods_datasetlogsname}",
            },
          },
        },
      },
    },
    staging: {
      json: {
        provider: { ods: [{ url: A.emu.url, token: A.emu.adminToken }] },
        resource: { ods_dataset: { logs: { ...meta("staging/logs"), name: "staging-logs", allow_destroy: true } } },
        output: { "cross-stack-output-ods_datasetlogsname": { value: "${ods_dataset.logs.name}", sensitive: true } },
      },
    },
  });

  it("--all-stacks plans and applies two stacks into two organizations, in dependency order; a stale directory is ignored", async () => {
    const dir = tempDir();
    writeStacks(dir, stacks());
    // Left over from an earlier synth, and no longer in manifest.json.
    fs.mkdirSync(path.join(dir, "cdktf.out/stacks/old"), { recursive: true });
    fs.writeFileSync(path.join(dir, "cdktf.out/stacks/old/cdk.tf.json"), "[]");

    const none = await ods(dir, ["plan"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/several stacks \(production, staging\) .* --stack NAME \(repeatable\) or --all-stacks/);

    const plan = await ods(dir, ["plan", "--all-stacks", "--detailed-exitcode"]);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout.indexOf("== Stack staging ==")).toBeLessThan(plan.stdout.indexOf("== Stack production =="));
    expect(plan.stdout.split("\n").slice(0, 2)).toEqual([
      `Target of stack staging, provider ods: ${A.emu.url}, organization "ODS Emulator" (id ${A.emu.orgId})`,
      `Target of stack production, provider ods: ${B.emu.url}, organization "ODS Emulator" (id ${B.emu.orgId})`,
    ]);
    expect(plan.stdout).toContain("description = (known after apply)");
    expect(plan.stdout).toMatch(/Summary \(2 stacks\):\n {2}staging: 1 to create, 1 output to change\n {2}production: 2 to create/);

    const md = await ods(dir, ["plan", "--all-stacks", "--format", "markdown"]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain("### Stack `staging`");
    expect(md.stdout).toContain(`- Target \`ods\`: ${B.emu.url}, organization **ODS Emulator** (\`${B.emu.orgId}\`)`);
    expect(md.stdout).toContain("**Plan:** 2 to create");
    expect(md.stdout).toContain("| create | `ods_role.mirror` |");
    expect(md.stderr).toContain("Target of stack staging");

    B.emu.resetRequests();
    const early = await ods(dir, ["apply", "--stack", "production", "--auto-approve"]);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain("stack production reads outputs of staging (output cross-stack-output-ods_datasetlogsname) that are not in their state yet: apply staging first");
    expect(writes(B)).toEqual([]);

    const apply = await ods(dir, ["apply", "--all-stacks", "--auto-approve"]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/Summary \(2 stacks\):\n {2}staging: Apply complete: 1 created.*\n {2}production: Apply complete: 2 created/);
    expect((await A.admin.listDatasets()).map((d) => d.name)).toContain("staging-logs");
    expect((await B.admin.listDatasets()).map((d) => d.name)).toContain("prod-logs");
    expect((await B.admin.listRoles()).find((r) => r.name === "mirror-of-staging")?.description).toBe("staging-logs");
    expect(fs.existsSync(path.join(dir, "terraform.staging.tfstate")) && fs.existsSync(path.join(dir, "terraform.production.tfstate"))).toBe(true);

    const again = await ods(dir, ["plan", "--stack", "production", "--stack", "staging", "--detailed-exitcode"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toMatch(/staging: no changes\n {2}production: no changes/);

    const destroy = await ods(dir, ["destroy", "--all-stacks", "--auto-approve"]);
    expect(destroy.code, destroy.stderr).toBe(0);
    expect(destroy.stdout.indexOf("== Stack production ==")).toBeLessThan(destroy.stdout.indexOf("== Stack staging =="));
    expect((await A.admin.listDatasets()).some((d) => d.name === "staging-logs")).toBe(false);
  }, 180_000);
});

describe("cross-stack references", () => {
  it("refuse an id that comes from a stack of another organization, naming that stack, with zero writes", async () => {
    const dir = tempDir();
    writeStacks(dir, {
      production: {
        dependencies: ["staging"],
        json: {
          provider: { ods: [{ url: B.emu.url, token: B.emu.adminToken }] },
          data: READS_STAGING,
          resource: {
            ods_monitor: {
              errors: {
                ...meta("production/errors"),
                name: "prod-errors",
                type: "Threshold",
                apl_query: "['prod-logs'] | summarize count() by bin(_time, 1m)",
                operator: "Above",
                threshold: 1,
                interval_minutes: 5,
                range_minutes: 5,
                notifier_ids: ["${data.terraform_remote_state.cross-stack-reference-input-staging.outputs.cross-stack-output-ods_notifieroncallid}"],
              },
            },
          },
        },
      },
      staging: {
        json: {
          provider: { ods: [{ url: A.emu.url, token: A.emu.adminToken }] },
          resource: { ods_notifier: { oncall: { ...meta("staging/oncall"), name: "stg-oncall", properties: { email: { emails: ["oncall@example.com"] } } } } },
          output: { "cross-stack-output-ods_notifieroncallid": { value: "${ods_notifier.oncall.id}", sensitive: true } },
        },
      },
    });
    expect((await ods(dir, ["apply", "--stack", "staging", "--auto-approve"])).code).toBe(0);
    const notifier = (await A.admin.listNotifiers()).find((n) => n.name === "stg-oncall")!;
    B.emu.resetRequests();
    const r = await ods(dir, ["plan", "--stack", "production"]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`[production/errors] ods_monitor.errors takes the id "${notifier.id}" of ods_notifier.oncall from stack staging, which lives in organization ODS Emulator (${A.emu.orgId}); this stack targets ODS Emulator (${B.emu.orgId})`);
    expect(writes(B)).toEqual([]);
    expect((await ods(dir, ["destroy", "--stack", "staging", "--auto-approve"])).code).toBe(0);
  }, 120_000);
});

describe("variables", () => {
  const HOOK_SECRET = "hook-secret-8d1f2a77";

  function stack(): unknown {
    return {
      variable: {
        ods_token: { type: "string", sensitive: true },
        team: { type: "string" },
        purpose: { type: "string" },
        hook_secret: { type: "string", sensitive: true },
        limit: { type: "number", default: 5 },
      },
      provider: { ods: [{ url: A.emu.url, token: "${var.ods_token}" }] },
      resource: {
        ods_notifier: {
          hook: {
            ...meta("vars/hook"),
            name: "${var.team}-hook",
            properties: { custom_webhook: { url: "https://hooks.example.com/x", secret_headers: { Authorization: "${var.hook_secret}" } } },
          },
        },
        // The secret interpolated into a plain attribute: still hidden, wherever it goes.
        ods_role: { r: { ...meta("vars/r"), name: "${var.team}-role", description: "${var.purpose}, key ${var.hook_secret}" } },
      },
      output: { team: { value: "${var.team}" } },
    };
  }

  it("come from TF_VAR_*, --var and --var-file, and a sensitive value appears in no output", async () => {
    const dir = tempDir();
    writeStacks(dir, { vars: { json: stack() } });
    const varFile = path.join(dir, "prod.tfvars");
    fs.writeFileSync(varFile, '# production\nteam = "from-file" // wins over TF_VAR_team\n');
    const env = { TF_VAR_ods_token: A.emu.adminToken, TF_VAR_hook_secret: HOOK_SECRET, TF_VAR_team: "from-env" };
    const texts: string[] = [];
    const run = async (args: string[], extra: Record<string, string> = {}): Promise<RunResult> => {
      const r = await ods(dir, args, { ...env, ...extra });
      texts.push(r.stdout, r.stderr);
      return r;
    };
    const vars = ["--var-file", varFile, "--var", "purpose=audit"];

    const missing = await run(["plan"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no value for the variable "purpose": set TF_VAR_purpose, pass --var purpose=VALUE');

    const typo = await run(["plan", ...vars, "--var", "teem=x"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('--var teem=...: no selected stack declares a variable "teem"');

    const plan = await run(["plan", ...vars]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('+ name = "from-file-hook"');
    expect(plan.stdout).toContain("+ description = (sensitive)");
    // A write-only secret and a credential URL are hidden by the kind already; the shape stays readable.
    expect(plan.stdout).toContain("custom_webhook = { url = (sensitive), secret_headers = (sensitive) }");
    await run(["plan", ...vars, "--json"]);
    const md = await run(["plan", ...vars, "--format", "markdown"]);
    if (process.env.ODS_SHOW_MARKDOWN) process.stderr.write(md.stdout);

    const apply = await run(["apply", "--auto-approve", ...vars]);
    expect(apply.code, apply.stderr).toBe(0);
    const role = (await A.admin.listRoles()).find((r) => r.name === "from-file-role");
    expect(role?.description).toBe(`audit, key ${HOOK_SECRET}`);
    expect((await A.admin.listNotifiers()).some((n) => n.name === "from-file-hook")).toBe(true);

    const show = await run(["state", "show", "ods_role.r"]);
    expect(show.stdout).toContain("description = (sensitive)");
    // --var given after --var-file wins; the same name in both: the later one.
    const order = await run(["plan", "--detailed-exitcode", "--var-file", varFile, "--var", "purpose=audit", "--var", "team=from-flag"]);
    expect(order.stdout).toContain('"from-file-hook" -> "from-flag-hook"');
    const noChanges = await run(["plan", "--detailed-exitcode", ...vars]);
    expect(noChanges.code, noChanges.stdout).toBe(0);
    expect((await run(["destroy", "--auto-approve", ...vars])).code).toBe(0);

    expect(leakedSecrets(texts, [HOOK_SECRET, A.emu.adminToken])).toEqual([]);
  }, 240_000);
});

describe("a stack that declares nothing, or is malformed", () => {
  it("never deletes what the state manages: malformed stacks are errors with zero writes; an empty one needs --allow-empty", async () => {
    const dir = tempDir();
    const good = { provider: { ods: [{ url: A.emu.url, token: A.emu.adminToken }] }, resource: { ods_dataset: { d: { ...meta("m/d"), name: "malformed-guard", allow_destroy: true } } } };
    writeStacks(dir, { m: { json: good } });
    expect((await ods(dir, ["apply", "--auto-approve"])).code).toBe(0);
    const stateFile = path.join(dir, "terraform.m.tfstate");
    const before = fs.readFileSync(stateFile, "utf8");
    A.emu.resetRequests();
    const stackFile = path.join(dir, "cdktf.out/stacks/m/cdk.tf.json");
    // Every malformed shape is covered by the unit tests of loading; these go through apply.
    const malformed = ["[]", '{"resource":[]}', '{"resources":{}}', '{"resource":{"ODS_NOTIFIER":{}}}'];
    for (const text of malformed) {
      fs.writeFileSync(stackFile, text);
      const r = await ods(dir, ["apply", "--auto-approve", "--url", A.emu.url, "--token", A.emu.adminToken]);
      expect(r.code, text).toBe(1);
      expect(r.stderr, text).toContain(stackFile);
      expect(r.stderr, text).toMatch(/at \$/);
    }
    expect(writes(A)).toEqual([]);
    expect(fs.readFileSync(stateFile, "utf8")).toBe(before);

    // Nothing at all: not even a provider block; the state's objects keep their target.
    fs.writeFileSync(stackFile, "{}");
    const target = { ODS_URL: A.emu.url, ODS_TOKEN: A.emu.adminToken };
    const plan = await ods(dir, ["plan", "--detailed-exitcode"], target);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain("- ods_dataset.d");
    const refused = await ods(dir, ["apply", "--auto-approve"], target);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("stack m declares no ods resources, but its state manages 1; applying would delete all of them. If that is what you want, pass --allow-empty");
    expect(writes(A)).toEqual([]);
    const allowed = await ods(dir, ["apply", "--auto-approve", "--allow-empty"], target);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await A.admin.listDatasets()).some((d) => d.name === "malformed-guard")).toBe(false);
  }, 180_000);

  it("honours lifecycle.prevent_destroy: a replace or destroy that would hit it is a plan error", async () => {
    const dir = tempDir();
    const json = (name: string): unknown => ({
      provider: { ods: [{ url: A.emu.url, token: A.emu.adminToken }] },
      resource: { ods_dataset: { d: { ...meta("p/d"), name, allow_destroy: true, lifecycle: { prevent_destroy: true } } } },
    });
    writeStacks(dir, { p: { json: json("guarded-a") } });
    expect((await ods(dir, ["apply", "--auto-approve"])).code).toBe(0);
    A.emu.resetRequests();
    writeStacks(dir, { p: { json: json("guarded-b") } });
    const rename = await ods(dir, ["apply", "--auto-approve"]);
    expect(rename.code).toBe(1);
    expect(rename.stderr).toContain("[p/d] ods_dataset.d has lifecycle.prevent_destroy set, but the plan would replace it");
    writeStacks(dir, { p: { json: json("guarded-a") } });
    const destroy = await ods(dir, ["destroy", "--auto-approve"]);
    expect(destroy.code).toBe(1);
    expect(destroy.stderr).toContain("has lifecycle.prevent_destroy set, but the plan would destroy it");
    expect(writes(A)).toEqual([]);
    expect((await A.admin.listDatasets()).some((d) => d.name === "guarded-a")).toBe(true);
  });
});
