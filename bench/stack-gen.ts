// Generates synthesized-stack specs of N resources spread over every resource kind, for
// the benchmarks (bench/run.ts) and the reliability suite (test/reliability). Pure: no
// I/O, no imports, so that vitest and the compiled bench load the same code.
//
// Shape: `{resource: {type: {name: attributes}}}` in the snake_case form cdktf writes.
// Map keys (capability dataset names, metadata) never contain "_", so that the synth app
// can turn attribute names into the constructs' camelCase without touching them.

export type Block = Record<string, unknown>;

export interface GeneratedStack {
  resource: Record<string, Record<string, Block>>;
}

export interface StackOptions {
  /** Total resources, datasets included. */
  n: number;
  /** Prefix of every name, so that two stacks on one service never collide. */
  prefix: string;
  /** 0: the base stack; k >= 1: every 10th resource changed (the k-th revision of it). */
  revision?: number;
  /** At most this many datasets (default 20). */
  maxDatasets?: number;
  /** A notifier secret for the i-th notifier (default: a fixed, recognizable value). */
  notifierSecret?: (i: number) => string;
  /** rotation_grace_period of the tokens (default "1h"). */
  tokenGracePeriod?: string;
}

/** Order in which the non-dataset kinds share the resources, round robin. */
export const SPREAD_KINDS = [
  "ods_notifier",
  "ods_role",
  "ods_api_token",
  "ods_virtual_field",
  "ods_starred_query",
  "ods_dataset_field",
  "ods_user",
  "ods_monitor",
] as const;

export const ALL_KINDS = ["ods_dataset", ...SPREAD_KINDS] as const;

export interface StackLayout {
  datasets: number;
  perKind: Record<string, number>;
  /** Fields each dataset must hold (ingested) before dataset fields can be claimed. */
  fieldsPerDataset: number;
}

/**
 * Monitors per stack at most: the emulator's license allows 500 monitors per organization,
 * and the benches put two stacks (ods's and terraform's) in one emulator.
 */
export const MAX_MONITORS = 200;

/** How N resources are split: a dataset per 5 resources up to the maximum, the rest round robin (monitors capped). */
export function layoutOf(n: number, maxDatasets = 20): StackLayout {
  if (!Number.isInteger(n) || n < 1) throw new Error(`n must be a whole number >= 1, got ${n}`);
  const datasets = Math.min(maxDatasets, Math.max(1, Math.floor(n / 5)));
  const perKind: Record<string, number> = { ods_dataset: datasets };
  const share = (kinds: readonly string[], count: number): void =>
    kinds.forEach((k, i) => {
      perKind[k] = Math.floor(count / kinds.length) + (i < count % kinds.length ? 1 : 0);
    });
  share(SPREAD_KINDS, n - datasets);
  if (perKind.ods_monitor > MAX_MONITORS) {
    const others = SPREAD_KINDS.filter((k) => k !== "ods_monitor");
    share(others, n - datasets - MAX_MONITORS);
    perKind.ods_monitor = MAX_MONITORS;
  }
  return { datasets, perKind, fieldsPerDataset: Math.max(1, Math.ceil(perKind.ods_dataset_field / datasets)) };
}

export function datasetName(prefix: string, d: number): string {
  return `${prefix}-ds-${d}`;
}

/** Field names ingested into every dataset (f0 is numeric: expressions use it). */
export function fieldNames(layout: StackLayout): string[] {
  return Array.from({ length: layout.fieldsPerDataset }, (_, i) => `f${i}`);
}

/** A few events holding every field, for POST /v1/datasets/NAME/ingest. */
export function sampleEvents(layout: StackLayout, count = 3): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, e) => {
    const event: Record<string, unknown> = {};
    fieldNames(layout).forEach((f, i) => {
      event[f] = i === 0 ? 10 * (e + 1) : `value-${e}-${i}`;
    });
    return event;
  });
}

function changed(globalIndex: number, revision: number): boolean {
  return revision > 0 && globalIndex % 10 === 0;
}

export function generateStack(opts: StackOptions): GeneratedStack {
  const { n, prefix } = opts;
  const revision = opts.revision ?? 0;
  const layout = layoutOf(n, opts.maxDatasets);
  const secret = opts.notifierSecret ?? ((i: number) => `bench-notifier-secret-${prefix}-${i}`);
  const resource: GeneratedStack["resource"] = {};
  for (const k of ALL_KINDS) resource[k] = {};
  let global = 0;
  const tag = (g: number): string => (changed(g, revision) ? ` (revision ${revision})` : "");
  const ds = (i: number): number => i % layout.datasets;
  const dsRef = (i: number): string => `\${ods_dataset.d${ds(i)}.name}`;

  for (let d = 0; d < layout.datasets; d++) {
    resource.ods_dataset[`d${d}`] = { name: datasetName(prefix, d), description: `bench dataset ${d}${tag(global++)}`, allow_destroy: true };
  }
  for (let i = 0; i < layout.perKind.ods_notifier; i++) {
    const g = global++;
    const url = `https://hooks.example.com/${prefix}/${i}${changed(g, revision) ? `/r${revision}` : ""}`;
    let properties: Block;
    switch (i % 4) {
      case 0:
        properties = { webhook: { url } };
        break;
      case 1:
        properties = { email: { emails: [`oncall-${i}@example.com`, `backup-${i}@example.com`] }, webhook: { url } };
        break;
      case 2:
        properties = { chat_b: { chat_b_channel: `#alerts-${i}`, chat_b_token: secret(i) }, webhook: { url } };
        break;
      default:
        properties = { custom_webhook: { url, body: "{{.AlertName}}: {{.Message}}", headers: { "X-Team": "sre" }, secret_headers: { Authorization: secret(i) } } };
    }
    resource.ods_notifier[`n${i}`] = { name: `${prefix}-n${i}`, properties };
  }
  for (let i = 0; i < layout.perKind.ods_role; i++) {
    resource.ods_role[`r${i}`] = {
      name: `${prefix}-r${i}`,
      description: `role ${i}${tag(global++)}`,
      org_capabilities: { datasets: ["read"], notifiers: ["read"] },
      dataset_capabilities: { [datasetName(prefix, ds(i))]: { query: ["read"], starred_queries: ["read"] } },
      depends_on: [`ods_dataset.d${ds(i)}`],
    };
  }
  for (let i = 0; i < layout.perKind.ods_api_token; i++) {
    resource.ods_api_token[`t${i}`] = {
      name: `${prefix}-t${i}`,
      description: `token ${i}${tag(global++)}`,
      org_capabilities: { datasets: ["read"] },
      rotation_grace_period: opts.tokenGracePeriod ?? "1h",
    };
  }
  for (let i = 0; i < layout.perKind.ods_virtual_field; i++) {
    resource.ods_virtual_field[`v${i}`] = {
      dataset: dsRef(i),
      name: `v${i}`,
      expression: `f0 * ${(i % 9) + 1}`,
      description: `virtual field ${i}${tag(global++)}`,
      type: "float",
    };
  }
  for (let i = 0; i < layout.perKind.ods_starred_query; i++) {
    resource.ods_starred_query[`q${i}`] = {
      dataset: dsRef(i),
      name: `q${i}`,
      query: { apl: `['${datasetName(prefix, ds(i))}'] | where f0 > ${i} | count`, start_time: "qr-now-1h", end_time: "qr-now" },
      metadata: { team: `sre${tag(global++) ? `-r${revision}` : ""}` },
    };
  }
  for (let i = 0; i < layout.perKind.ods_dataset_field; i++) {
    resource.ods_dataset_field[`f${i}`] = {
      dataset: datasetName(prefix, ds(i)),
      name: `f${Math.floor(i / layout.datasets)}`,
      description: `field ${i}${tag(global++)}`,
      unit: "ms",
      depends_on: [`ods_dataset.d${ds(i)}`],
    };
  }
  for (let i = 0; i < layout.perKind.ods_user; i++) {
    const g = global++;
    const custom = layout.perKind.ods_role > 0 && i % 3 === 0;
    const builtIn = changed(g, revision) ? "user" : "read-only";
    resource.ods_user[`u${i}`] = {
      email: `${prefix}-u${i}@example.com`,
      name: `Bench User ${i}`,
      role: custom && !changed(g, revision) ? `\${ods_role.r${i % layout.perKind.ods_role}.id}` : builtIn,
    };
  }
  for (let i = 0; i < layout.perKind.ods_monitor; i++) {
    const g = global++;
    const notifiers = layout.perKind.ods_notifier;
    resource.ods_monitor[`m${i}`] = {
      name: `${prefix}-m${i}`,
      type: "Threshold",
      apl_query: `['${datasetName(prefix, ds(i))}'] | where f0 > ${i} | summarize count() by bin(_time, 1m)`,
      operator: "Above",
      threshold: changed(g, revision) ? 100 + revision : 100,
      interval_minutes: 5,
      range_minutes: 10,
      ...(notifiers > 0 ? { notifier_ids: [`\${ods_notifier.n${i % notifiers}.id}`] } : {}),
    };
  }
  for (const k of ALL_KINDS) if (Object.keys(resource[k]).length === 0) delete resource[k];
  return { resource };
}

/** Resources per output in the growth stacks (issue 54: one output per five resources). */
export const RESOURCES_PER_OUTPUT = 5;

/**
 * One output per RESOURCES_PER_OUTPUT resources (in address order), each a reference to one
 * resource's id, as a team hands ids to other stacks: a plan's cost must grow with outputs
 * plus resources, not with their product.
 */
export function outputsOf(stack: GeneratedStack, every = RESOURCES_PER_OUTPUT): Record<string, { value: string }> {
  const addresses: string[] = [];
  for (const [type, byName] of Object.entries(stack.resource)) for (const name of Object.keys(byName)) addresses.push(`${type}.${name}`);
  addresses.sort();
  const out: Record<string, { value: string }> = {};
  for (let i = 0; i < addresses.length; i += every) out[`id_${i / every}`] = { value: `\${${addresses[i]}.id}` };
  return out;
}

/** Number of resources in a generated stack. */
export function resourceCount(stack: GeneratedStack): number {
  return Object.values(stack.resource).reduce((sum, byName) => sum + Object.keys(byName).length, 0);
}

/** Resources that differ between two generated stacks (by address and JSON). */
export function changedAddresses(a: GeneratedStack, b: GeneratedStack): string[] {
  const out: string[] = [];
  for (const [type, byName] of Object.entries(b.resource)) {
    for (const [name, block] of Object.entries(byName)) {
      if (JSON.stringify(a.resource[type]?.[name]) !== JSON.stringify(block)) out.push(`${type}.${name}`);
    }
  }
  return out;
}
