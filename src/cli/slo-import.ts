// `ods slo import FILE`: OpenSLO v1 (SLO with a ratioMetric whose metric sources are of
// type `ods`, AlertPolicy with burn-rate conditions) written as TypeScript using slo.Slo.
// A malformed file is refused naming every problem with its line, before anything is written.
import { LineCounter, isNode, parseDocument } from "../automation/alert-tests/yaml-parser";
import { reservedKeyPath, reservedKeyReason } from "../resources/reserved-keys";
import { attempt, problemLines, Skipped, type FileProblem } from "../automation/file-problems";
import { windowText } from "../resources/backtest/slo-model";

export class SloImportError extends Error {
  constructor(
    readonly file: string,
    /** Every problem, in the order of the file. */
    readonly problems: readonly FileProblem[],
  ) {
    super(problemLines(file, problems));
    this.name = "SloImportError";
  }
}

type Path = (string | number)[];
type Fail = (doc: number, path: Path, problem: string) => never;

interface ImportedPair {
  severity: "page" | "ticket";
  longWindow: string;
  shortWindow: string;
  factor: number;
}

export interface ImportedSlo {
  id: string;
  name: string;
  description?: string;
  dataset: string;
  badFilter: string;
  totalFilter?: string;
  objectivePercent: number;
  windowDays: number;
  windows: ImportedPair[];
  /** Notification target names of page and ticket conditions. */
  pageTargets: string[];
  ticketTargets: string[];
  labels: Record<string, string>;
}

interface Doc {
  value: Record<string, unknown>;
  index: number;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Splits a multi-document YAML text at its `---` lines, each parsed with its own line numbers. */
function readDocuments(file: string, text: string): { docs: Doc[]; lineOf: (doc: number, path: Path) => number } {
  const lines = text.split("\n");
  const starts: number[] = [0];
  lines.forEach((l, i) => {
    if (/^---\s*$/.test(l) && i > 0) starts.push(i + 1);
  });
  const parsed = starts.map((start, i) => {
    const end = i + 1 < starts.length ? starts[i + 1] - 1 : lines.length;
    const counter = new LineCounter();
    const doc = parseDocument(lines.slice(start, end).join("\n"), { lineCounter: counter, prettyErrors: false });
    return { start, counter, doc };
  });
  const broken = parsed.flatMap(({ start, counter, doc }) => doc.errors.map((e) => ({ line: start + counter.linePos(e.pos[0]).line, problem: e.message.split("\n")[0] })));
  if (broken.length > 0) throw new SloImportError(file, broken);
  const lineOf = (index: number, path: Path): number => {
    const { start, counter, doc } = parsed[index];
    for (let p = path; ; p = p.slice(0, -1)) {
      const node = p.length === 0 ? doc.contents : doc.getIn(p, true);
      if (isNode(node) && node.range) return start + counter.linePos(node.range[0]).line;
      if (p.length === 0) return start + 1;
    }
  };
  const present = parsed.map((p, index) => ({ value: p.doc.toJS() as unknown, index })).filter((d) => d.value !== null && d.value !== undefined);
  const reserved = present.flatMap((d) => {
    const at = reservedKeyPath(d.value);
    return at ? [{ line: lineOf(d.index, [...at]), problem: `${at.join(".")}: ${reservedKeyReason(at[at.length - 1])}` }] : [];
  });
  if (reserved.length > 0) throw new SloImportError(file, reserved);
  const notObjects = present.filter((d) => !isObject(d.value)).map((d) => ({ line: lineOf(d.index, []), problem: "expected an OpenSLO object (apiVersion, kind, metadata, spec)" }));
  if (notObjects.length > 0) throw new SloImportError(file, notObjects);
  return { docs: present as Doc[], lineOf };
}

function at(v: unknown, ...keys: string[]): unknown {
  let cur = v;
  for (const k of keys) cur = isObject(cur) ? cur[k] : undefined;
  return cur;
}

/** `28d`, `1h`, `5m` (OpenSLO durations) as minutes and as the construct's window text. */
function duration(value: unknown, fail: () => never): { minutes: number; text: string } {
  const m = typeof value === "string" ? /^(\d+)(m|h|d|w)$/.exec(value.trim()) : null;
  if (!m) return fail();
  const minutes = Number(m[1]) * { m: 1, h: 60, d: 1440, w: 10080 }[m[2] as "m"];
  return { minutes, text: windowText(minutes) };
}

interface Source {
  dataset: string;
  filter: string;
}

function metricSource(raw: unknown, doc: number, path: Path, fail: Fail): Source {
  const src = at(raw, "metricSource");
  if (!isObject(src)) return fail(doc, [...path, "metricSource"], "expected a metricSource with type ods and spec {dataset, filter}");
  if (src.type !== "ods") return fail(doc, [...path, "metricSource", "type"], `expected type "ods", got ${JSON.stringify(src.type)}`);
  const spec = src.spec;
  if (!isObject(spec) || typeof spec.dataset !== "string" || spec.dataset === "") return fail(doc, [...path, "metricSource", "spec", "dataset"], "expected the dataset's name");
  if (typeof spec.filter !== "string" || spec.filter.trim() === "") return fail(doc, [...path, "metricSource", "spec", "filter"], "expected an APL predicate");
  return { dataset: spec.dataset, filter: spec.filter };
}

function identifier(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "slo";
}

/** Reads an OpenSLO v1 file into the SLOs it declares; throws SloImportError naming the line. */
export function importOpenSlo(file: string, text: string): ImportedSlo[] {
  const { docs, lineOf } = readDocuments(file, text);
  const problems: FileProblem[] = [];
  const fail: Fail = (doc, path, problem) => {
    problems.push({ line: lineOf(doc, path), problem: `${path.length > 0 ? path.join(".") : "the document"}: ${problem}` });
    throw new Skipped();
  };
  const slos = attempt(() => importDocuments(docs, fail), []);
  if (problems.length > 0) throw new SloImportError(file, problems);
  return slos;
}

/** The SLOs of the documents; every problem goes to FAIL, which abandons only the part it is in. */
function importDocuments(docs: readonly Doc[], fail: Fail): ImportedSlo[] {
  for (const d of docs) {
    if (d.value.apiVersion !== "openslo/v1") attempt(() => fail(d.index, ["apiVersion"], `expected "openslo/v1", got ${JSON.stringify(d.value.apiVersion)}`), undefined);
    if (typeof at(d.value, "metadata", "name") !== "string") attempt(() => fail(d.index, ["metadata", "name"], "expected a name"), undefined);
  }
  const named = (kind: string) => new Map(docs.filter((d) => d.value.kind === kind).map((d) => [String(at(d.value, "metadata", "name")), d] as const));
  const slis = named("SLI");
  const policies = named("AlertPolicy");
  const conditions = named("AlertCondition");
  const slos = docs.filter((d) => d.value.kind === "SLO");
  if (slos.length === 0) fail(docs[0]?.index ?? 0, [], "expected at least one document of kind SLO");

  const imported = slos.map((d) => attempt(() => importSlo(d, { slis, policies, conditions }, fail), undefined));
  return imported.filter((s): s is ImportedSlo => s !== undefined);
}

interface Named {
  slis: ReadonlyMap<string, Doc>;
  policies: ReadonlyMap<string, Doc>;
  conditions: ReadonlyMap<string, Doc>;
}

/** One SLO document; its indicator, objective and each alert condition are checked apart. */
function importSlo(d: Doc, { slis, policies, conditions }: Named, fail: Fail): ImportedSlo {
  const i = d.index;
  const spec = d.value.spec;
  if (!isObject(spec)) return fail(i, ["spec"], "expected the SLO's spec");
  // The indicator inline, or by reference to an SLI document.
  let indicator: Doc | undefined = isObject(spec.indicator) ? { value: spec.indicator, index: i } : undefined;
  let indicatorPath: Path = ["spec", "indicator"];
  if (!indicator && typeof spec.indicatorRef === "string") {
    indicator = slis.get(spec.indicatorRef);
    if (!indicator) return fail(i, ["spec", "indicatorRef"], `no SLI named "${spec.indicatorRef}" in the file`);
    indicatorPath = [];
  }
  if (!indicator) attempt(() => fail(i, ["spec"], "expected an indicator or an indicatorRef"), undefined);
  const sources = indicator ? attempt(() => indicatorSources(indicator!, indicatorPath, fail), undefined) : undefined;
  const objective = attempt(() => objectiveOf(spec, i, fail), undefined);

  // Alert policies inline or by name; each condition of kind burnrate is a window pair.
  const pairs: ImportedPair[] = [];
  const pageTargets = new Set<string>();
  const ticketTargets = new Set<string>();
  const refs = Array.isArray(spec.alertPolicies) ? spec.alertPolicies : [];
  refs.forEach((ref, r) => attempt(() => {
    let policy: Doc | undefined;
    let policyPath: Path = [];
    if (typeof ref === "string" || typeof at(ref, "alertPolicyRef") === "string") {
      const name = typeof ref === "string" ? ref : String(at(ref, "alertPolicyRef"));
      policy = policies.get(name);
      if (!policy) return fail(i, ["spec", "alertPolicies", r], `no AlertPolicy named "${name}" in the file`);
    } else if (isObject(ref) && ref.kind === "AlertPolicy") {
      policy = { value: ref, index: i };
      policyPath = ["spec", "alertPolicies", r];
    } else return fail(i, ["spec", "alertPolicies", r], "expected an AlertPolicy's name, an alertPolicyRef or an inline AlertPolicy");
    const targets = (Array.isArray(at(policy.value, "spec", "notificationTargets")) ? (at(policy.value, "spec", "notificationTargets") as unknown[]) : [])
      .map((t) => (typeof at(t, "targetRef") === "string" ? String(at(t, "targetRef")) : typeof at(t, "metadata", "name") === "string" ? String(at(t, "metadata", "name")) : undefined))
      .filter((t): t is string => t !== undefined);
    const conds = at(policy.value, "spec", "conditions");
    if (!Array.isArray(conds) || conds.length === 0) return fail(policy.index, [...policyPath, "spec", "conditions"], "expected at least one condition");
    conds.forEach((c, k) => attempt(() => {
      const pair = burnRatePair(c, policy!, [...policyPath, "spec", "conditions", k], conditions, fail);
      pairs.push(pair);
      for (const t of targets) (pair.severity === "page" ? pageTargets : ticketTargets).add(t);
    }, undefined));
  }, undefined));
  if (!sources || !objective) throw new Skipped();
  const { total, bad } = sources;
  const { objectivePercent, windowDays } = objective;
  const metadata = d.value.metadata as Record<string, unknown>;
  const name = typeof metadata.displayName === "string" && metadata.displayName !== "" ? metadata.displayName : String(metadata.name);
  const labels: Record<string, string> = {};
  if (isObject(metadata.labels)) for (const [k, v] of Object.entries(metadata.labels)) labels[k] = Array.isArray(v) ? v.join(",") : String(v);
  if (typeof spec.service === "string") labels.service ??= spec.service;
  return {
    id: identifier(String(metadata.name)),
    name,
    ...(typeof spec.description === "string" && spec.description !== "" ? { description: spec.description } : {}),
    dataset: total.dataset,
    badFilter: bad.filter,
    ...(total.filter.trim() !== "true" ? { totalFilter: total.filter } : {}),
    objectivePercent,
    windowDays,
    windows: pairs,
    pageTargets: [...pageTargets],
    ticketTargets: [...ticketTargets],
    labels,
  };
}

/** The total and bad metric sources of an indicator (a good one turned into bad). */
function indicatorSources(indicator: Doc, indicatorPath: Path, fail: Fail): { total: Source; bad: Source } {
  const ratioPath = [...indicatorPath, "spec", "ratioMetric"];
  const ratio = at(indicator.value, "spec", "ratioMetric");
  if (!isObject(ratio)) return fail(indicator.index, ratioPath, "expected a ratioMetric (good or bad, and total)");
  if (!isObject(ratio.total)) return fail(indicator.index, [...ratioPath, "total"], "expected the total metric");
  const total = metricSource(ratio.total, indicator.index, [...ratioPath, "total"], fail);
  let bad: Source;
  if (isObject(ratio.bad)) bad = metricSource(ratio.bad, indicator.index, [...ratioPath, "bad"], fail);
  else if (isObject(ratio.good)) {
    const good = metricSource(ratio.good, indicator.index, [...ratioPath, "good"], fail);
    bad = { dataset: good.dataset, filter: `not (${good.filter})` };
  } else return fail(indicator.index, ratioPath, "expected a good or a bad metric");
  if (bad.dataset !== total.dataset) return fail(indicator.index, [...ratioPath, isObject(ratio.bad) ? "bad" : "good", "metricSource", "spec", "dataset"], `expected the total's dataset "${total.dataset}": an SLO counts the events of one dataset`);
  return { total, bad };
}

/** The objective (a percentage) and the rolling window (whole days) of an SLO's spec. */
function objectiveOf(spec: Record<string, unknown>, i: number, fail: Fail): { objectivePercent: number; windowDays: number } {
  const objectives = spec.objectives;
  if (!Array.isArray(objectives) || objectives.length !== 1 || !isObject(objectives[0])) return fail(i, ["spec", "objectives"], "expected one objective");
  const o = objectives[0];
  let objectivePercent: number;
  if (typeof o.targetPercent === "number") objectivePercent = o.targetPercent;
  else if (typeof o.target === "number" && o.target > 0 && o.target < 1) objectivePercent = Number((o.target * 100).toPrecision(12));
  else return fail(i, ["spec", "objectives", 0, "target"], `expected a target in (0, 1) or a targetPercent, got ${JSON.stringify(o.target)}`);
  if (!(objectivePercent > 0 && objectivePercent < 100)) return fail(i, ["spec", "objectives", 0, "targetPercent"], `expected a percentage above 0 and below 100, got ${objectivePercent}`);
  if (spec.budgetingMethod !== undefined && spec.budgetingMethod !== "Occurrences") {
    return fail(i, ["spec", "budgetingMethod"], `expected "Occurrences" (an SLO here counts events), got ${JSON.stringify(spec.budgetingMethod)}`);
  }
  const windows = spec.timeWindow;
  if (!Array.isArray(windows) || windows.length !== 1) return fail(i, ["spec", "timeWindow"], "expected one time window");
  if (at(windows[0], "isRolling") === false) return fail(i, ["spec", "timeWindow", 0, "isRolling"], "expected a rolling window");
  const window = duration(at(windows[0], "duration"), () => fail(i, ["spec", "timeWindow", 0, "duration"], `expected a duration like "28d", got ${JSON.stringify(at(windows[0], "duration"))}`));
  const windowDays = window.minutes / 1440;
  if (!Number.isInteger(windowDays) || windowDays < 1 || windowDays > 90) return fail(i, ["spec", "timeWindow", 0, "duration"], `expected whole days from 1d to 90d, got ${JSON.stringify(at(windows[0], "duration"))}`);
  return { objectivePercent, windowDays };
}

/** One burn-rate condition of an alert policy (inline, or by conditionRef) as a window pair. */
function burnRatePair(c: unknown, policy: Doc, path: Path, conditions: ReadonlyMap<string, Doc>, fail: Fail): ImportedPair {
  let cond: Doc = { value: c as Record<string, unknown>, index: policy.index };
  let condPath: Path = path;
  if (typeof at(c, "conditionRef") === "string") {
    const found = conditions.get(String(at(c, "conditionRef")));
    if (!found) return fail(policy.index, [...condPath, "conditionRef"], `no AlertCondition named "${String(at(c, "conditionRef"))}" in the file`);
    cond = found;
    condPath = [];
  }
  // Each field is checked apart (attempt), so a condition with several mistakes names them all.
  const severity = attempt((): "page" | "ticket" | undefined => {
    const text = String(at(cond.value, "spec", "severity") ?? "").toLowerCase();
    if (text === "page" || text === "critical") return "page";
    if (text === "ticket" || text === "warning") return "ticket";
    return fail(cond.index, [...condPath, "spec", "severity"], `expected page (or critical) or ticket (or warning), got ${JSON.stringify(at(cond.value, "spec", "severity"))}`);
  }, undefined);
  const condition = at(cond.value, "spec", "condition");
  const cp = [...condPath, "spec", "condition"];
  const kindOk = attempt(() => at(condition, "kind") === "burnrate" || fail(cond.index, [...cp, "kind"], `expected "burnrate", got ${JSON.stringify(at(condition, "kind"))}`), false);
  const op = at(condition, "op");
  const opOk = attempt(() => op === undefined || op === "gt" || op === "gte" || fail(cond.index, [...cp, "op"], `expected "gt" (a burn rate above the threshold alerts), got ${JSON.stringify(op)}`), false);
  const threshold = attempt((): number | undefined => {
    const t = at(condition, "threshold");
    return typeof t === "number" && t > 0 ? t : fail(cond.index, [...cp, "threshold"], `expected a burn rate above 0, got ${JSON.stringify(t)}`);
  }, undefined);
  const long = attempt(() => {
    const l = duration(at(condition, "lookbackWindow"), () => fail(cond.index, [...cp, "lookbackWindow"], `expected a duration like "1h", got ${JSON.stringify(at(condition, "lookbackWindow"))}`));
    return l.minutes > 7 * 1440 ? fail(cond.index, [...cp, "lookbackWindow"], "expected at most 7d") : l;
  }, undefined);
  // The short window: alertAfter when given, else a twelfth of the long window (the workbook's ratio).
  const shortRaw = at(condition, "alertAfter");
  const short = attempt(() => {
    if (shortRaw === undefined) return long && { minutes: Math.max(1, Math.round(long.minutes / 12)), text: windowText(Math.max(1, Math.round(long.minutes / 12))) };
    const s = duration(shortRaw, () => fail(cond.index, [...cp, "alertAfter"], `expected a duration like "5m", got ${JSON.stringify(shortRaw)}`));
    return long && s.minutes >= long.minutes ? fail(cond.index, [...cp, "alertAfter"], `expected a short window shorter than lookbackWindow ${long.text}`) : s;
  }, undefined);
  if (!severity || !kindOk || !opOk || threshold === undefined || !long || !short) throw new Skipped();
  return { severity, longWindow: long.text, shortWindow: short.text, factor: threshold };
}

const q = (s: string): string => JSON.stringify(s);

/** The TypeScript a user keeps: a function adding the file's SLOs to a scope. */
export function sloTypeScript(file: string, slos: readonly ImportedSlo[]): string {
  const targets = [...new Set(slos.flatMap((s) => [...s.pageTargets, ...s.ticketTargets]))].sort();
  const out: string[] = [
    `// Generated by \`ods slo import ${file}\` from OpenSLO v1: one slo.Slo per SLO document.`,
    'import { Construct } from "constructs";',
    'import { slo } from "cdktf-provider-ods";',
    "",
    "/** The notifier id of each notification target the file names. */",
    `export type NotificationTargets = { [target in ${targets.length > 0 ? targets.map(q).join(" | ") : "never"}]: string };`,
    "",
    "export function addSlos(scope: Construct, targets: NotificationTargets): slo.Slo[] {",
    "  return [",
  ];
  for (const s of slos) {
    const ids = (names: string[]) => `[${names.map((n) => `targets[${q(n)}]`).join(", ")}]`;
    out.push(`    new slo.Slo(scope, ${q(s.id)}, {`, `      name: ${q(s.name)},`);
    if (s.description) out.push(`      description: ${q(s.description)},`);
    out.push(`      dataset: ${q(s.dataset)},`, `      badFilter: ${q(s.badFilter)},`);
    if (s.totalFilter) out.push(`      totalFilter: ${q(s.totalFilter)},`);
    out.push(`      objectivePercent: ${s.objectivePercent},`, `      windowDays: ${s.windowDays},`, "      alerting: {");
    if (s.pageTargets.length > 0) out.push(`        pageNotifierIds: ${ids(s.pageTargets)},`);
    if (s.ticketTargets.length > 0) out.push(`        ticketNotifierIds: ${ids(s.ticketTargets)},`);
    if (s.windows.length > 0) {
      out.push("        windows: [");
      for (const w of s.windows) {
        out.push(`          { severity: slo.SloSeverity.${w.severity === "page" ? "PAGE" : "TICKET"}, longWindow: ${q(w.longWindow)}, shortWindow: ${q(w.shortWindow)}, factor: ${w.factor} },`);
      }
      out.push("        ],");
    }
    out.push("      },");
    if (Object.keys(s.labels).length > 0) out.push(`      labels: { ${Object.entries(s.labels).map(([k, v]) => `${q(k)}: ${q(v)}`).join(", ")} },`);
    out.push("    }),");
  }
  out.push("  ];", "}", "");
  return out.join("\n");
}
