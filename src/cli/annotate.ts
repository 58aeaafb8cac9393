// Annotations that mark changes on the charts of their datasets: `ods apply --annotate`
// writes one per dataset its changes touched (type config-change), and `ods annotate`
// writes one for a deploy pipeline. An annotation links to the CI run that made it when
// the run's own variables say where that is.
import type { Command } from "commander";
import * as fs from "node:fs";
import type { OdsClient } from "../api";
import { DONE } from "../reconcile/apply";
import { namedDatasets, resourceKind, type Values } from "../resources";
import { clientFromEnv, collect } from "./export-command";

const MAX_TITLE = 256;
const MAX_DESCRIPTION = 512;
const MAX_URL = 512;

type Env = Readonly<Record<string, string | undefined>>;

function httpUrl(text: string | undefined): string | undefined {
  if (!text || text.length > MAX_URL) return undefined;
  try {
    const u = new URL(text);
    return u.protocol === "https:" || u.protocol === "http:" ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** The URL of the CI run this process is part of, from the CI system's own variables. */
export function ciRunUrl(env: Env): string | undefined {
  const joined = (...parts: (string | undefined)[]): string | undefined => (parts.every((p) => p) ? parts.join("") : undefined);
  const candidates = [
    // GitHub Actions
    joined(env.GITHUB_SERVER_URL, "/", env.GITHUB_REPOSITORY, "/actions/runs/", env.GITHUB_RUN_ID),
    // GitLab CI
    env.CI_JOB_URL,
    env.CI_PIPELINE_URL,
    // Buildkite, CircleCI, Jenkins
    env.BUILDKITE_BUILD_URL,
    env.CIRCLE_BUILD_URL,
    env.BUILD_URL,
    // Azure Pipelines
    joined(env.SYSTEM_COLLECTIONURI, env.SYSTEM_TEAMPROJECT, "/_build/results?buildId=", env.BUILD_BUILDID),
    // Bitbucket Pipelines
    joined(env.BITBUCKET_GIT_HTTP_ORIGIN, "/pipelines/results/", env.BITBUCKET_BUILD_NUMBER),
  ];
  for (const c of candidates) {
    const url = httpUrl(c);
    if (url) return url;
  }
  return undefined;
}

/** One applied change, with the values that say which datasets it touched. */
export interface AppliedChange {
  address: string;
  typeName: string;
  action: string;
  /** The object's values after the change (before it, for a deletion). */
  values: Values | null;
}

/** Changes by the datasets they name (only changes that name one). */
export function changesByDataset(changes: readonly AppliedChange[]): Map<string, AppliedChange[]> {
  const out = new Map<string, AppliedChange[]>();
  for (const c of changes) {
    const kind = resourceKind(c.typeName);
    if (!kind || !c.values) continue;
    for (const d of namedDatasets(kind, c.values)) {
      if (!out.has(d)) out.set(d, []);
      out.get(d)!.push(c);
    }
  }
  return out;
}

/** Past tense of each counted action, as the apply's summary counts them. */
const PAST: Readonly<Record<string, string>> = DONE;

/** "ods apply: 3 configuration changes (1 created, 2 updated)". */
export function changeTitle(changes: readonly AppliedChange[], by = "ods apply"): string {
  const byAction = new Map<string, number>();
  for (const c of changes) byAction.set(c.action, (byAction.get(c.action) ?? 0) + 1);
  const parts = [...byAction].map(([action, n]) => `${n} ${PAST[action] ?? action}`).join(", ");
  const n = changes.length;
  return `${by}: ${n} configuration change${n === 1 ? "" : "s"} (${parts})`.slice(0, MAX_TITLE);
}

function changeDescription(changes: readonly AppliedChange[]): string {
  const text = changes.map((c) => `${PAST[c.action] ?? c.action} ${c.address}`).join("; ");
  return text.length <= MAX_DESCRIPTION ? text : `${text.slice(0, MAX_DESCRIPTION - 1)}…`;
}

/** A resource change of `terraform show -json PLANFILE`. */
interface TerraformResourceChange {
  address?: string;
  mode?: string;
  type?: string;
  change?: { actions?: string[]; before?: Values | null; after?: Values | null };
}

/**
 * The ods changes of a Terraform plan as `terraform show -json PLANFILE` prints it, for
 * annotating what `terraform apply PLANFILE` changed.
 */
export function changesOfTerraformPlan(json: unknown): AppliedChange[] {
  const list = (json as { resource_changes?: TerraformResourceChange[] } | null)?.resource_changes;
  if (!Array.isArray(list)) throw new Error("not a Terraform plan in JSON (expected resource_changes; use `terraform show -json PLANFILE`)");
  const out: AppliedChange[] = [];
  for (const rc of list) {
    const actions = rc.change?.actions ?? [];
    if (rc.mode !== "managed" || !rc.type?.startsWith("ods_") || !rc.address) continue;
    const action = actions.length === 2 ? "replace" : actions[0];
    if (action !== "create" && action !== "update" && action !== "delete" && action !== "replace") continue;
    out.push({ address: rc.address, typeName: rc.type, action, values: (action === "delete" ? rc.change?.before : rc.change?.after) ?? null });
  }
  return out;
}

export interface AnnotateApplyOptions {
  /** When the apply started: the annotation spans the apply. Unset: the annotation marks now. */
  startedAt?: Date;
  env: Env;
  warn: (text: string) => void;
  info: (text: string) => void;
  /** What made the changes, for the title. @default "ods apply" */
  by?: string;
}

/**
 * Writes one config-change annotation per dataset the changes touched. Never throws: an
 * annotation that cannot be written is a warning, since the apply itself succeeded.
 */
export async function annotateApply(client: OdsClient, changes: readonly AppliedChange[], o: AnnotateApplyOptions): Promise<number> {
  const touched = changesByDataset(changes);
  if (touched.size === 0) return 0;
  let existing: Set<string>;
  try {
    existing = new Set((await client.listDatasets()).map((d) => d.name));
  } catch (e) {
    o.warn(`no annotations written: listing the datasets failed: ${(e as Error).message}`);
    return 0;
  }
  const url = ciRunUrl(o.env);
  const now = new Date().toISOString();
  const span = o.startedAt ? { time: o.startedAt.toISOString(), endTime: now } : { time: now };
  let written = 0;
  for (const [dataset, mine] of [...touched].sort(([a], [b]) => a.localeCompare(b))) {
    if (!existing.has(dataset)) {
      o.warn(`no annotation for dataset ${dataset}: it does not exist (named by ${mine.map((c) => c.address).join(", ")})`);
      continue;
    }
    try {
      const a = await client.createAnnotation({
        datasets: [dataset],
        type: "config-change",
        ...span,
        title: changeTitle(mine, o.by),
        description: changeDescription(mine),
        ...(url ? { url } : {}),
      });
      written++;
      o.info(`Annotated dataset ${dataset}: ${a.id}`);
    } catch (e) {
      o.warn(`annotating dataset ${dataset} failed: ${(e as Error).message}`);
    }
  }
  return written;
}

interface AnnotateOpts {
  dataset: string[];
  changesFrom?: string;
  type: string;
  title?: string;
  description?: string;
  url?: string;
  tokenEnv: string;
}

/** `--changes-from`: as `ods apply --annotate` does after an apply; failures are warnings. */
async function annotateTerraformPlan(o: AnnotateOpts): Promise<void> {
  const changes = changesOfTerraformPlan(JSON.parse(fs.readFileSync(o.changesFrom!, "utf8")) as unknown);
  const client = clientFromEnv(undefined, o.tokenEnv);
  try {
    const written = await annotateApply(client, changes, {
      env: process.env,
      by: "terraform apply",
      warn: (t) => process.stderr.write(`Warning: ${t}\n`),
      info: (t) => process.stdout.write(`${t}\n`),
    });
    if (written === 0) process.stdout.write("No annotations written.\n");
  } finally {
    await client.close();
  }
}

export function registerAnnotateCommand(program: Command): void {
  program
    .command("annotate")
    .description("Mark an event (a deploy, a change) on the charts of datasets. The URL defaults to the CI run's.")
    .option("--dataset <name>", "dataset to annotate (repeatable)", collect, [])
    .option("--changes-from <file>", "annotate what a Terraform plan changed (`terraform show -json PLANFILE` output), one config-change per dataset")
    .option("--type <type>", "kind of event: lower-case letters, digits and -", "deploy")
    .option("--title <text>", "short title")
    .option("--description <text>", "longer text")
    .option("--url <url>", "link for the event (default: the CI run, from its variables)")
    .option("--token-env <var>", "environment variable with the token", "ODS_TOKEN")
    .action(async (o: AnnotateOpts) => {
      if (o.changesFrom !== undefined) return annotateTerraformPlan(o);
      if (o.dataset.length === 0) throw new Error("name the datasets with --dataset (repeatable), or give --changes-from PLAN.json");
      if (!/^[a-z0-9-]+$/.test(o.type)) throw new Error(`--type: lower-case letters, digits and "-" only, got "${o.type}"`);
      const url = o.url ?? ciRunUrl(process.env);
      const client = clientFromEnv(undefined, o.tokenEnv);
      try {
        const a = await client.createAnnotation({
          datasets: o.dataset,
          type: o.type,
          ...(o.title !== undefined ? { title: o.title } : {}),
          ...(o.description !== undefined ? { description: o.description } : {}),
          ...(url ? { url } : {}),
        });
        process.stdout.write(`Annotated ${o.dataset.join(", ")}: ${a.id}\n`);
      } finally {
        await client.close();
      }
    });
}
