// One generator per resource kind, keyed by its Terraform type name: how to draw a
// resource of that kind (as plain choices that fast-check can shrink), how to render
// those choices into the attribute values of a synthesized stack, and how to make the
// values invalid in ways both engines must refuse. Adding a kind to RESOURCE_KINDS means
// adding one entry here; coverage.test.ts fails until every kind and every attribute
// the user can set is generated.
import fc from "fast-check";
import { DATASET_CAPABILITY_ACTIONS, ORG_CAPABILITY_ACTIONS, VIEW_CAPABILITY_ACTIONS } from "../../src/resources/capabilities";
import type { Values } from "../../src/resources";
import { DashboardBuilder, DashboardChart, DashboardChartType } from "../../src/dashboard-builder";
import { type RefChoice, RenderContext, VARIABLES } from "./render-context";

/** Ways to make rendered values invalid; `attribute` is what both engines must name. */
export interface Breaker {
  attribute: string;
  /** The broken values, or undefined when this breaker does not apply to these values. */
  break(values: Values): Values | undefined;
}

export interface KindGenerator {
  /** Starts generated names and addresses: `ds` gives `s1r0-ds3` and `ods_dataset.ds3`. */
  stem: string;
  draft: fc.Arbitrary<unknown>;
  render(draft: unknown, ctx: RenderContext): Values;
  breakers: readonly Breaker[];
}

/** Ties a typed draft to its renderer; the registry holds them type-erased. */
function kind<D>(stem: string, draft: fc.Arbitrary<D>, render: (d: D, ctx: RenderContext) => Values, breakers: Breaker[]): KindGenerator {
  return { stem, draft, render: (d, ctx) => render(d as D, ctx), breakers };
}

/** Number of fields ingested into the fixture dataset (f0, f1, ...): more than a seed's resources. */
export const FIXTURE_FIELDS = 64;

/** Far-future instants in the forms users write; a token's other expiries were set by a rotation. */
export const TIMESTAMPS = ["2031-01-01T00:00:00Z", "2032-06-30T12:00:00+02:00", "2033-03-15T08:30:00.5Z"] as const;

// Absent about half the time: every optional attribute is drawn both ways.
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(a, { nil: undefined, freq: 2 });
const pick = fc.nat({ max: 7 });
const refChoice: fc.Arbitrary<RefChoice> = fc.record({ style: fc.constantFrom("ref", "literal", "var"), pick });

/** Drops undefined members, as a synthesized stack never writes them. */
function defined(v: Record<string, unknown>): Values {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
}

/** A description: literal, empty (the service's default), or interpolating a variable or a reference. */
const descriptionDraft = maybe(fc.record({ form: fc.constantFrom("literal", "empty", "var", "reference"), n: pick }));
function description(d: { form: string; n: number } | undefined, ctx: RenderContext): string | undefined {
  if (!d) return undefined;
  switch (d.form) {
    case "empty":
      return "";
    case "var":
      return `owned by \${var.${VARIABLES.team}} (${d.n})`;
    case "reference":
      return `about ${ctx.datasetName({ style: "ref", pick: d.n })} #${d.n}`;
    default:
      return `description ${d.n}`;
  }
}

/** A write-only secret: literal, the sensitive variable, or the variable inside a string. */
const secretDraft = fc.record({ form: fc.constantFrom("literal", "var", "interpolated"), n: pick });
function secret(d: { form: string; n: number }, ctx: RenderContext): string {
  if (d.form === "var") return `\${var.${VARIABLES.secret}}`;
  if (d.form === "interpolated") return `Bearer \${var.${VARIABLES.secret}}`;
  return `secret-${ctx.uid}-${d.n}`;
}

const actionsOf = (allowed: readonly string[]): fc.Arbitrary<string[]> => fc.shuffledSubarray([...allowed], { minLength: 1 });

/** Some of the keys of a capability table, each with some of its actions (order carries no meaning). */
function capabilityObject(table: Readonly<Record<string, readonly string[]>>, minKeys: number): fc.Arbitrary<Record<string, string[]>> {
  return fc
    .shuffledSubarray(Object.keys(table), { minLength: minKeys, maxLength: Math.min(4, Object.keys(table).length) })
    .chain((keys) => fc.tuple(...keys.map((k) => actionsOf(table[k]))).map((lists) => Object.fromEntries(keys.map((k, i) => [k, lists[i]]))));
}

const capabilitiesDraft = fc.record({
  org: maybe(capabilityObject(ORG_CAPABILITY_ACTIONS, 1)),
  datasets: maybe(fc.array(fc.record({ key: refChoice, caps: capabilityObject(DATASET_CAPABILITY_ACTIONS, 1) }), { minLength: 1, maxLength: 2 })),
  views: maybe(fc.array(fc.record({ view: fc.constantFrom("view-a", "view-b"), caps: capabilityObject(VIEW_CAPABILITY_ACTIONS, 1) }), { minLength: 1, maxLength: 2 })),
});
type CapabilitiesDraft = typeof capabilitiesDraft extends fc.Arbitrary<infer T> ? T : never;

/** org/dataset/view capabilities; dataset capabilities are keyed by a dataset name, a reference among them. */
function capabilities(d: CapabilitiesDraft, ctx: RenderContext): Values {
  const keyed = <T extends { caps: Record<string, string[]> }>(entries: T[] | undefined, key: (e: T) => string): Values | undefined =>
    entries ? Object.fromEntries(entries.map((e) => [key(e), e.caps])) : undefined;
  // Two keys that evaluate to one dataset name are a duplicate key, which Terraform refuses.
  const datasets = d.datasets?.filter((e, i, all) => all.findIndex((o) => ctx.resolvedDatasetName(o.key) === ctx.resolvedDatasetName(e.key)) === i);
  return defined({
    org_capabilities: d.org,
    dataset_capabilities: keyed(datasets, (e) => ctx.datasetName(e.key)),
    view_capabilities: keyed(d.views, (e) => e.view),
  });
}

const capabilityBreaker: Breaker = {
  attribute: "datasets",
  break: (v) => ({ ...v, org_capabilities: { ...((v.org_capabilities as Values | undefined) ?? {}), datasets: ["fly"] } }),
};

const APL = [
  (ds: string) => `['${ds}'] | where f0 >= 5`,
  (ds: string) => `['${ds}'] | summarize count() by bin_auto(_time)`,
  (ds: string) => `['${ds}'] | where f1 == "x" | project f0, f1`,
  (ds: string) => `['${ds}'] | take 10`,
];
const DASHBOARD_CHART_TYPES = [DashboardChartType.TIME_SERIES, DashboardChartType.TABLE, DashboardChartType.STATISTIC, DashboardChartType.NOTE, DashboardChartType.SPACER];
/** The id of the generated monitor-list chart, so that a breaker finds its layout item. */
const MONITOR_LIST_CHART = "monitors";
const EXPRESSIONS = ["f0 * 2", "f0 / 1024", "strcat(f1, \"-\")", "tostring(f2)"];

/** A plan-time refusal only where the other side is known at plan (a literal dataset). */
const literalDataset = (v: Values): boolean => typeof v.dataset === "string" && !v.dataset.includes("${");

/** A monitor's query for its type: a threshold or anomaly query aggregates, a match query only filters. */
const MONITOR_APL: Readonly<Record<string, readonly ((ds: string) => string)[]>> = {
  Threshold: [
    (ds) => `['${ds}'] | where f0 >= 5 | summarize count() by bin(_time, 1m)`,
    (ds) => `['${ds}'] | summarize c = count(), m = max(f0) by f1`,
    // bin_auto draws a warning from both engines, never a refusal.
    (ds) => `['${ds}'] | summarize count() by bin_auto(_time)`,
  ],
  MatchEvent: [(ds) => `['${ds}'] | where f0 > 100 | project f0, f1`, (ds) => `['${ds}'] | where f1 == "panic"`],
  AnomalyDetection: [(ds) => `['${ds}'] | summarize avg(f0) by bin(_time, 5m)`],
};

/** The monitor operators (MONITOR_OPERATORS of src/resources/monitor.ts). */
const OPERATORS = ["Below", "BelowOrEqual", "Above", "AboveOrEqual", "AboveOrBelow"] as const;

export const KIND_GENERATORS: Readonly<Record<string, KindGenerator>> = {
  ods_dataset: kind(
    "ds",
    fc.record({ description: descriptionDraft, allowDestroy: fc.option(fc.boolean(), { nil: undefined }) }),
    (d, ctx) => defined({ name: ctx.name("ds"), description: description(d.description, ctx), allow_destroy: d.allowDestroy }),
    [{ attribute: "name", break: (v) => ({ ...v, name: "no spaces allowed" }) }],
  ),

  ods_dataset_field: kind(
    "fd",
    fc.record({ viaVar: fc.boolean(), description: descriptionDraft, unit: maybe(fc.constantFrom("ms", "decbytes", "")), hidden: maybe(fc.boolean()) }),
    (d, ctx) =>
      defined({
        dataset: d.viaVar ? `\${var.${VARIABLES.fixtureDataset}}` : ctx.fixtureDataset,
        name: `f${ctx.uid % FIXTURE_FIELDS}`,
        description: description(d.description, ctx),
        unit: d.unit,
        hidden: d.hidden,
      }),
    [{ attribute: "name", break: (v) => ({ ...v, name: "   " }) }],
  ),

  ods_virtual_field: kind(
    "vf",
    fc.record({
      dataset: refChoice,
      expression: fc.constantFrom(...EXPRESSIONS),
      description: descriptionDraft,
      type: maybe(fc.constantFrom("integer", "string", "float")),
      unit: maybe(fc.constantFrom("ms", "KiB")),
    }),
    (d, ctx) =>
      defined({
        dataset: ctx.datasetName(d.dataset),
        name: ctx.name("vf"),
        expression: d.expression,
        description: description(d.description, ctx),
        type: d.type,
        unit: d.unit,
      }),
    [{ attribute: "expression", break: (v) => ({ ...v, expression: " " }) }],
  ),

  ods_starred_query: kind(
    "sq",
    fc.record({
      dataset: refChoice,
      apl: fc.nat({ max: APL.length - 1 }),
      kind: fc.boolean(),
      who: maybe(fc.oneof(fc.constantFrom("team", "all"), pick)),
      metadata: maybe(fc.dictionary(fc.constantFrom("team", "tier", "owner"), fc.constantFrom("a", "b", ""), { maxKeys: 3 })),
      query: fc.record({
        start_time: maybe(fc.constantFrom("qr-now-1h", "2030-01-01T00:00:00Z")),
        end_time: maybe(fc.constantFrom("qr-now", "2030-01-02T00:00:00Z")),
        cursor: maybe(fc.constantFrom("c-1", "c-2")),
        include_cursor: maybe(fc.boolean()),
        include_cursor_field: maybe(fc.boolean()),
        default_limit: maybe(fc.integer({ min: 1, max: 1000 })),
        default_order: maybe(fc.array(fc.record({ field: fc.constantFrom("_time", "f0", "f1"), desc: maybe(fc.boolean()) }, { requiredKeys: ["field"] }), { minLength: 1, maxLength: 2 })),
        libraries: maybe(fc.array(fc.constantFrom("lib-a", "lib-b"), { maxLength: 2 })),
        variables: maybe(fc.dictionary(fc.constantFrom("limit", "env"), fc.constantFrom("10", "prod"), { maxKeys: 2 })),
        query_options: maybe(
          fc.record(
            {
              disable_cache: fc.boolean(),
              disable_stats: fc.boolean(),
              disable_trace: fc.boolean(),
              no_aggregation: fc.boolean(),
              no_fill: fc.boolean(),
              no_interpolation: fc.boolean(),
              max_data_points: fc.integer({ min: 1, max: 500 }),
              max_series: fc.integer({ min: 1, max: 50 }),
              priority: fc.constantFrom("low", "high"),
              resolution: fc.constantFrom("1m", "auto"),
            },
            { requiredKeys: [] },
          ),
        ),
      }),
    }),
    (d, ctx) => {
      const dataset = ctx.datasetName(d.dataset);
      // The query names its dataset: inside the APL text, a reference is an interpolation.
      const who = typeof d.who === "number" ? ctx.reference("ods_user", "id", d.who) : d.who;
      return defined({
        dataset,
        name: ctx.name("sq"),
        kind: d.kind ? "apl" : undefined,
        who,
        metadata: d.metadata,
        query: defined({ apl: APL[d.apl](dataset), ...d.query, default_order: d.query.default_order?.map((o) => defined(o)) }),
      });
    },
    [
      { attribute: "default_limit", break: (v) => ({ ...v, query: { ...(v.query as Values), default_limit: 0 } }) },
      { attribute: "kind", break: (v) => ({ ...v, kind: "sql" }) },
      { attribute: "apl", break: (v) => (literalDataset(v) ? { ...v, query: { ...(v.query as Values), apl: `['${String(v.dataset)}'] | where (` } } : undefined) },
    ],
  ),

  ods_notifier: kind(
    "nt",
    fc.record({
      disabledUntil: maybe(fc.constantFrom(...TIMESTAMPS)),
      channels: fc.record(
        {
          custom_webhook: fc.record({
            body: maybe(fc.constantFrom("{{.AlertName}}: {{.Message}}", "{\"severity\": \"{{.Severity}}\"}")),
            headers: maybe(fc.dictionary(fc.constantFrom("X-Team", "X-Env"), fc.constantFrom("sre", "prod"), { minKeys: 1, maxKeys: 2 })),
            secretHeaders: maybe(secretDraft),
          }),
          webhook: fc.constant(true),
          email: fc.shuffledSubarray(["oncall@example.com", "sre@example.com", "lead@example.org"], { minLength: 1 }),
          chat_a: fc.constant(true),
          chat_b: fc.record({ channel: fc.constantFrom("#alerts", "#ops"), token: secretDraft }),
          chat_b_webhook: fc.constant(true),
          chat_c: fc.constant(true),
          incident_a: fc.record({ apiKey: secretDraft, isEu: maybe(fc.boolean()) }),
          incident_b: fc.record({ routingKey: secretDraft, token: maybe(secretDraft) }),
        },
        { requiredKeys: [] },
      ),
      fallback: fc.constantFrom("webhook", "email", "incident_b"),
      // Each credential in its plain form, or write-only (`<name>_wo`) with a version.
      writeOnly: fc.boolean(),
      writeOnlyVersion: fc.integer({ min: 1, max: 3 }),
    }),
    (d, ctx) => {
      const c = d.channels;
      const cred = (name: string, value: string): Values =>
        d.writeOnly ? { [`${name}_wo`]: value, [`${name}_wo_version`]: d.writeOnlyVersion } : { [name]: value };
      const credMap = (name: string, value: Values): Values =>
        d.writeOnly ? { [`${name}_wo`]: value, [`${name}_wo_version`]: d.writeOnlyVersion } : { [name]: value };
      const url = (path: string): string => `https://hooks.example.com/${ctx.name("nt")}/${path}`;
      // Chat webhook URLs carry their credential in the path.
      const credentialUrl = (host: string): string => `https://${host}/services/T0/B${ctx.uid}/XXXX${ctx.uid}`;
      const properties = defined({
        custom_webhook: c.custom_webhook
          ? defined({
              ...cred("url", url("custom")),
              body: c.custom_webhook.body,
              headers: c.custom_webhook.headers,
              ...(c.custom_webhook.secretHeaders ? credMap("secret_headers", { Authorization: secret(c.custom_webhook.secretHeaders, ctx) }) : {}),
            })
          : undefined,
        webhook: c.webhook ? cred("url", url("plain")) : undefined,
        email: c.email ? { emails: c.email } : undefined,
        chat_a: c.chat_a ? cred("chat_a_url", credentialUrl("hooks.chat-a.example")) : undefined,
        chat_b: c.chat_b ? { chat_b_channel: c.chat_b.channel, ...cred("chat_b_token", secret(c.chat_b.token, ctx)) } : undefined,
        chat_b_webhook: c.chat_b_webhook ? cred("chat_b_webhook_url", credentialUrl("hooks.chat-b.example")) : undefined,
        chat_c: c.chat_c ? cred("chat_c_url", credentialUrl("hooks.chat-c.example")) : undefined,
        incident_a: c.incident_a ? defined({ ...cred("api_key", secret(c.incident_a.apiKey, ctx)), is_eu: c.incident_a.isEu }) : undefined,
        incident_b: c.incident_b
          ? defined({ ...cred("routing_key", secret(c.incident_b.routingKey, ctx)), ...(c.incident_b.token ? cred("token", secret(c.incident_b.token, ctx)) : {}) })
          : undefined,
      });
      // At least one channel: the fallback when none was drawn.
      if (Object.keys(properties).length === 0) {
        properties[d.fallback] =
          d.fallback === "webhook" ? { url: url("plain") } : d.fallback === "email" ? { emails: ["oncall@example.com"] } : { routing_key: `rk-${ctx.uid}` };
      }
      return defined({ name: ctx.name("nt"), disabled_until: d.disabledUntil, properties });
    },
    [
      { attribute: "disabled_until", break: (v) => ({ ...v, disabled_until: "tomorrow" }) },
      { attribute: "url", break: (v) => ({ ...v, properties: { ...(v.properties as Values), webhook: { url: "ftp://hooks.example.com/x" } } }) },
      { attribute: "emails", break: (v) => ({ ...v, properties: { ...(v.properties as Values), email: { emails: ["not-an-address"] } } }) },
    ],
  ),

  ods_monitor: kind(
    "mo",
    fc.record({
      type: fc.constantFrom("Threshold", "MatchEvent", "AnomalyDetection"),
      dataset: refChoice,
      apl: fc.nat({ max: 2 }),
      description: descriptionDraft,
      operator: fc.constantFrom(...OPERATORS),
      threshold: fc.constantFrom(0, 3, 2.5, 1000),
      interval: fc.constantFrom(1, 5, 60),
      range: fc.constantFrom(1, 5, 30),
      secondDelay: maybe(fc.constantFrom(0, 30, 86_400)),
      flags: fc.record(
        { alert_on_no_data: fc.boolean(), notify_by_group: fc.boolean(), notify_every_run: fc.boolean(), resolvable: fc.boolean(), skip_resolved: fc.boolean(), disabled: fc.boolean() },
        { requiredKeys: [] },
      ),
      disabledUntil: maybe(fc.constantFrom(...TIMESTAMPS)),
      notifiers: maybe(fc.uniqueArray(pick, { maxLength: 2 })),
      nOfM: maybe(fc.record({ n: fc.integer({ min: 1, max: 3 }), extra: fc.nat({ max: 2 }) })),
      compareDays: fc.integer({ min: 1, max: 7 }),
      tolerance: fc.constantFrom(0, 12.5, 100),
      columnName: maybe(fc.constantFrom("c", "m")),
    }),
    (d, ctx) => {
      const queries = MONITOR_APL[d.type];
      const compares = d.type !== "MatchEvent";
      const notifiers = d.notifiers?.map((p) => ctx.reference("ods_notifier", "id", p)).filter((n): n is string => n !== undefined);
      return defined({
        name: ctx.name("mo"),
        type: d.type,
        description: description(d.description, ctx),
        // The query names its dataset: inside the APL text, a reference is an interpolation.
        apl_query: queries[d.apl % queries.length](ctx.datasetName(d.dataset)),
        operator: compares ? d.operator : undefined,
        threshold: d.type === "Threshold" ? d.threshold : undefined,
        interval_minutes: d.interval,
        range_minutes: d.range,
        second_delay: d.secondDelay,
        ...d.flags,
        disabled_until: d.disabledUntil,
        notifier_ids: notifiers ? [...new Set(notifiers)] : undefined,
        trigger_after_n_positive_results: compares ? d.nOfM?.n : undefined,
        trigger_from_n_runs: compares && d.nOfM ? d.nOfM.n + d.nOfM.extra : undefined,
        compare_days: d.type === "AnomalyDetection" ? d.compareDays : undefined,
        tolerance: d.type === "AnomalyDetection" ? d.tolerance : undefined,
        column_name: d.type === "Threshold" ? d.columnName : undefined,
      });
    },
    [
      { attribute: "operator", break: (v) => ({ ...v, operator: "GreaterThan" }) },
      { attribute: "interval_minutes", break: (v) => ({ ...v, interval_minutes: 0 }) },
      {
        // Known at synth only when the query names its dataset literally.
        attribute: "apl_query",
        break: (v) => (typeof v.apl_query === "string" && !v.apl_query.includes("${") ? { ...v, type: "MatchEvent", apl_query: `${v.apl_query} | summarize count()` } : undefined),
      },
    ],
  ),

  ods_view: kind(
    "vw",
    fc.record({ dataset: refChoice, apl: fc.nat({ max: APL.length - 1 }), listed: fc.boolean(), description: descriptionDraft }),
    (d, ctx) => {
      const dataset = ctx.datasetName(d.dataset);
      return defined({
        name: ctx.name("vw"),
        apl_query: APL[d.apl](dataset),
        datasets: d.listed ? [dataset] : undefined,
        description: description(d.description, ctx),
      });
    },
    [
      { attribute: "name", break: (v) => ({ ...v, name: "  " }) },
      { attribute: "apl_query", break: (v) => (typeof v.datasets === "undefined" && !String(v.apl_query).includes("${") ? { ...v, apl_query: `${String(v.apl_query)} | where (` } : undefined) },
    ],
  ),

  // Built with the typed builder: the document is JSON text whose queries may interpolate a dataset reference.
  ods_dashboard: kind(
    "db",
    fc.record({
      charts: fc.array(
        fc.record({ type: fc.constantFrom(...DASHBOARD_CHART_TYPES), dataset: refChoice, apl: fc.nat({ max: APL.length - 1 }), width: fc.integer({ min: 1, max: 12 }), named: fc.boolean() }),
        { minLength: 1, maxLength: 4 },
      ),
      refresh: fc.constantFrom(15, 60, 300),
      window: fc.constantFrom("qr-now-1h", "qr-now-6h", "qr-now-1d"),
      overwrite: maybe(fc.boolean()),
      // A monitor list naming an earlier monitor by reference: unknown at plan when it is created too.
      monitorList: maybe(fc.record({ pick, width: fc.integer({ min: 1, max: 12 }) })),
    }),
    (d, ctx) => {
      const charts = d.charts.map((c, i) => {
        const name = c.named ? `chart ${i}` : undefined;
        if (c.type === DashboardChartType.NOTE) return DashboardChart.note({ name, text: `note ${ctx.uid}`, width: c.width });
        if (c.type === DashboardChartType.SPACER) return DashboardChart.spacer({ width: c.width });
        return DashboardChart.query(c.type, { name, apl: APL[c.apl](ctx.datasetName(c.dataset)), width: c.width });
      });
      const monitorId = d.monitorList ? ctx.reference("ods_monitor", "id", d.monitorList.pick) : undefined;
      if (d.monitorList && monitorId) charts.push(DashboardChart.monitorList({ id: MONITOR_LIST_CHART, monitorIds: [monitorId], width: d.monitorList.width }));
      const dashboard = new DashboardBuilder({ name: `Dashboard ${ctx.uid}`, refreshSeconds: d.refresh, timeWindowStart: d.window, charts }).toJson();
      return defined({ uid: ctx.name("db"), dashboard, overwrite: d.overwrite });
    },
    [
      {
        attribute: "dashboard",
        break: (v) => {
          const doc = JSON.parse(String(v.dashboard)) as { layout: { i: string; w: number }[] };
          // With a monitor named by reference: the monitor list 14 wide, refused though its monitor's id is unknown.
          const monitorList = doc.layout.find((item) => item.i === MONITOR_LIST_CHART);
          if (monitorList) monitorList.w = 14;
          else doc.layout[0]!.w = 13;
          return { ...v, dashboard: JSON.stringify(doc) };
        },
      },
      { attribute: "uid", break: (v) => ({ ...v, uid: "has spaces" }) },
    ],
  ),

  ods_user: kind(
    "us",
    fc.record({ role: fc.oneof(fc.constantFrom("admin", "user", "read-only", "none"), pick) }),
    (d, ctx) =>
      defined({
        email: `${ctx.name("us")}@example.com`,
        name: `User ${ctx.uid}`,
        role: typeof d.role === "number" ? (ctx.reference("ods_role", "id", d.role) ?? "user") : d.role,
      }),
    [{ attribute: "email", break: (v) => ({ ...v, email: "not-an-address" }) }],
  ),

  ods_role: kind(
    "rl",
    fc.record({ description: descriptionDraft, members: maybe(fc.uniqueArray(pick, { maxLength: 2 })), caps: capabilitiesDraft }),
    (d, ctx) => {
      const members = d.members?.map((p) => ctx.reference("ods_user", "id", p)).filter((m): m is string => m !== undefined);
      return defined({
        name: ctx.name("rl"),
        description: description(d.description, ctx),
        members: members ? [...new Set(members)] : undefined,
        ...capabilities(d.caps, ctx),
      });
    },
    [capabilityBreaker],
  ),

  ods_api_token: kind(
    "tk",
    fc.record({
      description: descriptionDraft,
      expiresAt: maybe(fc.constantFrom(...TIMESTAMPS)),
      caps: capabilitiesDraft,
      grace: maybe(fc.constantFrom("0s", "1h", "30m")),
      trigger: maybe(fc.constantFrom("v1", "v2")),
    }),
    (d, ctx) =>
      defined({
        name: ctx.name("tk"),
        description: description(d.description, ctx),
        expires_at: d.expiresAt,
        ...capabilities(d.caps, ctx),
        rotation_grace_period: d.grace,
        rotation_trigger: d.trigger,
      }),
    [
      { attribute: "expires_at", break: (v) => ({ ...v, expires_at: "next year" }) },
      { attribute: "rotation_grace_period", break: (v) => ({ ...v, rotation_grace_period: "soon" }) },
      capabilityBreaker,
    ],
  ),
};
