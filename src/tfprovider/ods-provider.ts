// The ODS resource model served as a Terraform provider: the translation between
// Terraform's protocol values and the resource lifecycle (src/lifecycle) that `ods
// plan/apply` uses too, behind the generic plugin server's ProviderImpl contract.
import { createHash } from "node:crypto";
import * as path from "node:path";
import { OdsApiError, OdsClient, resolveClientConfig } from "../api";
import {
  type Attribute,
  type Attributes,
  type DataSourceKind,
  type EphemeralKind,
  type ResourceKind,
  type Values,
  type WireObject,
  dataSourceKind,
  ephemeralKind,
  ephemeralResourceSchemas,
  providersSchemaJson,
  reservedKeyPath,
  reservedKeyReason,
  PROVIDER_SOURCE,
  resourceKind,
  validateDeclaration,
  valueSteps,
  withWriteOnlyFrom,
} from "../resources";
import { durationMillis } from "../resources/checks";
import * as lifecycle from "../lifecycle";
import {
  LicenseReader,
  LiveIndex,
  objectLicenseProblems,
  RequiresReplace,
  UNKNOWN as MODEL_UNKNOWN,
  applyDefaults,
  changedSinceLastApply,
  claimListed,
  containsUnknown,
  deletionRefusal,
  describeProblem,
  importValues,
  issuesNewObject,
  liveValues,
  naturalKeyText,
  plannedValues,
  replacementRefusal,
  planCheckWarnings,
  runPlanCheck,
  runPlanInsight,
  scopeOf,
  secretOfAnswer,
  strayDatasetWarnings,
  upgradeValues,
  wantsPlanCheck,
  type LifecycleContext,
} from "../lifecycle";
import { errorDiagnostic, formatPath as formatAttributePath, warningDiagnostic, type AttributePath, type Diagnostic, type PathStep } from "./diagnostics";
import type {
  CloseEphemeralRequest,
  OpenEphemeralRequest,
  OpenEphemeralResult,
  ProviderImpl,
  RenewEphemeralRequest,
  RenewEphemeralResult,
  UpgradeStateRequest,
  UpgradeStateResult,
} from "./provider-impl";
import { CreationEvidence, creationKey } from "./creation-evidence";
import { PassedChecks, checkJournal } from "./passed-checks";
import { declaredBlock, declaredDatasets } from "./declared-config";
import type { ProviderSchemaJson } from "./schema-json";
import { UNKNOWN, isUnknown, type TfObject, type TfValue } from "./values";

type Path = (string | number)[];

/** Model values from protocol values: the protocol's unknown becomes the lifecycle's, bigints numbers. */
function toModel(v: TfValue | undefined): unknown {
  if (v === undefined || v === null) return null;
  if (isUnknown(v)) return MODEL_UNKNOWN;
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(toModel);
  if (typeof v === "object") {
    const out: Values = {};
    for (const [k, x] of Object.entries(v)) out[k] = toModel(x);
    return out;
  }
  return v;
}

function modelOf(v: TfObject): Values {
  return toModel(v) as Values;
}

/** Protocol values from model values: the model's unknown becomes the protocol's. */
function toTf(v: unknown): TfValue {
  if (v === MODEL_UNKNOWN) return UNKNOWN;
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map(toTf);
  if (typeof v === "object") {
    const out: TfObject = {};
    for (const [k, x] of Object.entries(v)) out[k] = toTf(x);
    return out;
  }
  return v as TfValue;
}

// Shaping and the refresh rule are the lifecycle's (src/lifecycle/state-attributes.ts):
// `ods apply` stores the same attribute values for the same object.
function shape(attr: Attribute, v: unknown): TfValue {
  return toTf(lifecycle.shapeValue(attr, v));
}

function shapeObject(attrs: Attributes, values: Values): TfObject {
  return toTf(lifecycle.shapeObject(attrs, values)) as TfObject;
}

/** Comparable text of model values, unknowns included (JSON alone would drop them). */
function comparable(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x === MODEL_UNKNOWN ? "(known after apply)" : x));
}

/**
 * What a refresh returns: the lifecycle's refresh rule over the prior state. When the rule
 * kept every prior value, the prior state object itself (the server answers it with the
 * bytes Terraform sent: most refreshes find nothing changed).
 */
function mergeLive(attrs: Attributes, prior: TfObject, priorValues: Values, live: Values): TfObject {
  const merged = lifecycle.mergeLive(attrs, priorValues, live);
  return merged === priorValues ? prior : (toTf(merged) as TfObject);
}

function pathOf(path: Path): AttributePath {
  return path.map((p) => p);
}

/** A path found in a configuration value as Terraform's steps (attribute names, list indexes, map keys). */
function configSteps(attrs: Attributes, path: readonly (string | number)[]): PathStep[] {
  return valueSteps(attrs, path).map((s) => ("attribute" in s ? s.attribute : "index" in s ? s.index : { key: s.key }));
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * Private bytes for an object that has none: an empty ods private record (the form
 * `ods apply` writes there, see reconcile/state.ts), so that either engine reads it as
 * nothing recorded. Only its presence matters (see planResourceChange).
 */
const REPLACEABLE_PRIVATE = new Uint8Array(Buffer.from(JSON.stringify({ ods: {} })));

const documentNames = new WeakMap<object, string[]>();

/** A kind's document attributes (JSON texts that may be templates), listed once per kind. */
function documentAttributes(kind: Pick<ResourceKind, "typeName" | "attributes">): string[] {
  let names = documentNames.get(kind);
  if (!names) documentNames.set(kind, (names = Object.keys(kind.attributes).filter((name) => kind.attributes[name].document === true)));
  return names;
}

/**
 * For a document attribute Terraform sends as unknown (a template naming an object not
 * created yet), the text the configuration declares, so that the same checks as `ods
 * plan`'s run on it with placeholders for the unknown parts (declared-config.ts).
 * Undefined when no attribute needs it or the declaration is not found.
 */
function withDeclaredTemplates(kind: Pick<ResourceKind, "typeName" | "attributes">, values: Values): { values: Values; constructPath?: string } | undefined {
  const wanted = documentAttributes(kind).filter((name) => values[name] === MODEL_UNKNOWN);
  if (wanted.length === 0) return undefined;
  const block = declaredBlock(kind.typeName, values);
  if (!block) return undefined;
  const out: Values = { ...values };
  for (const name of wanted) if (typeof block.values[name] === "string") out[name] = block.values[name];
  return { values: out, constructPath: block.constructPath };
}

/** What open hands to renew and close through Terraform (no secret: the id and the expiry). */
interface EphemeralRecord {
  readonly id: string;
  readonly expiresAtMs: number;
}

function ephemeralRecord(bytes: Uint8Array): EphemeralRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const r = parsed as Partial<EphemeralRecord> | undefined;
  if (!r || typeof r.id !== "string" || typeof r.expiresAtMs !== "number") throw new Error("Terraform sent no record of the opened ephemeral resource");
  return { id: r.id, expiresAtMs: r.expiresAtMs };
}

// The model is fixed for the process: every instance shares its schema.
let providerSchema: ProviderSchemaJson | undefined;

export interface OdsProviderOptions {
  /**
   * A directory (checkJournalDir) where the passed checks are written down for the
   * provider processes that come next: the next walk of a command, or the next command.
   * None: every process checks for itself.
   */
  readonly checkJournalDir?: string;
}

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** A check's attribute path ("notifier_ids.0") as Terraform steps: list indexes are numbers. */
function problemPath(attribute: string): AttributePath {
  return attribute.split(".").map((step) => (/^\d+$/.test(step) ? Number(step) : step));
}

/** A check's identity, hashed (it may be written to a file): its kind and the values it reads (a query's text, its dataset). */
function checkKey(kind: ResourceKind, values: Values): string {
  return sha256(JSON.stringify([kind.typeName, ...(kind.planCheck?.needs ?? []).map((n) => values[n] ?? null)]));
}

export class OdsTerraformProvider implements ProviderImpl {
  constructor(private readonly options: OdsProviderOptions = {}) {}

  private client?: OdsClient;
  private orgId?: string;
  /** Objects (TYPE:id) this process planned to replace: the create Terraform plans next for each is their own. */
  private readonly replacing = new Set<string>();
  /** The objects this provider created that Terraform may not hold yet: the only ones a create may adopt. */
  private creations = new CreationEvidence();
  /** Days a monitor's backtest looks back (the provider block's backtest_days); unset: none. */
  private backtestDays?: number;
  /** Written down in a journal file, if any, for the command's next provider process. */
  private passedChecks?: PassedChecks;
  /**
   * Reads the plan-time checks share within this process (the organization's notifiers
   * and datasets), by the type name of the kind they list; forgotten when this process
   * writes that kind (see applyResourceChange).
   */
  private readonly reads = new Map<string, Promise<unknown>>();
  /** Kinds whose list this apply has asked for fresh before its first create (see createOrAdoptOwn). */
  private readonly listedForApply = new Set<string>();
  /** Answers the plan insights of this command share (see insight). */
  private readonly insightAnswers = new Map<string, Promise<unknown>>();
  private insightNowMs: number | undefined;
  /** One list call per kind (per dataset) per provider process serves every refresh. */
  private readonly live = new LiveIndex();
  /** The organization's license, read once per process when a plan may reach a limit. */
  private readonly licenses = new LicenseReader(() => this.api(), () => this.orgId);
  schema(): ProviderSchemaJson {
    // Ephemeral resources are the Terraform path's alone: not in the schema the construct
    // bindings are generated from (cdktf cannot declare `ephemeral` blocks).
    return (providerSchema ??= { ...providersSchemaJson().provider_schemas[PROVIDER_SOURCE], ephemeral_resource_schemas: ephemeralResourceSchemas() });
  }

  configure(request: { config: TfObject }): readonly Diagnostic[] {
    const c = request.config;
    const str = (k: string): string | undefined => (typeof c[k] === "string" ? (c[k] as string) : undefined);
    if (["url", "token", "org_id"].some((k) => isUnknown(c[k] ?? null))) {
      return [errorDiagnostic("Provider configuration depends on unknown values", "url, token and org_id must be known when Terraform plans.")];
    }
    try {
      const timeout = str("timeout");
      const rate = c.rate_limit_per_second;
      const config = resolveClientConfig({
        url: str("url"),
        token: str("token"),
        orgId: str("org_id"),
        rateLimitPerSecond: typeof rate === "number" ? rate : undefined,
        timeoutMs: timeout ? durationMillis(timeout) : undefined,
      });
      const { checkJournalDir } = this.options;
      // The target: the token only as a digest, since the key names a file.
      const target = [config.url, config.orgId ?? "", sha256(config.token), config.rateLimitPerSecond ?? ""].join("\n");
      this.passedChecks = checkJournalDir ? new PassedChecks(undefined, undefined, undefined, checkJournal(checkJournalDir, sha256(target))) : undefined;
      // What this provider created and Terraform may not have yet: per target, as the checks.
      this.creations.close();
      this.creations = new CreationEvidence(checkJournalDir ? path.join(checkJournalDir, `creations-${sha256(target)}.log`) : undefined);
      this.client = new OdsClient(config);
      this.orgId = this.client.config.orgId;
      this.backtestDays = typeof c.backtest_days === "number" ? c.backtest_days : undefined;
    } catch (err) {
      return [errorDiagnostic("Invalid provider configuration", (err as Error).message)];
    }
    return [];
  }

  /**
   * The provider is done: its keep-alive connections and credentials go. Ended by
   * Terraform's Shutdown call (`graceful`), Terraform holds every object this process
   * created; a Terraform that is gone may not have stored them (see creation-evidence.ts).
   */
  async close(how: { graceful?: boolean } = {}): Promise<void> {
    if (how.graceful) this.creations.handOver();
    this.creations.close();
    const client = this.client;
    this.client = undefined;
    await client?.close();
  }

  private api(): OdsClient {
    if (!this.client) throw new Error("the provider is not configured");
    return this.client;
  }

  private kind(typeName: string): ResourceKind {
    const k = resourceKind(typeName);
    if (!k) throw new Error(`unknown resource type ${typeName}`);
    return k;
  }

  private validate(kind: ResourceKind | DataSourceKind | EphemeralKind, config: TfObject, role: "resource" | "data" = "data"): Diagnostic[] {
    // What the configuration sets: its null attributes left out (a delete per null made
    // every validated object a slow dictionary object).
    const values: Values = {};
    for (const k in config) if (config[k] !== null) values[k] = toModel(config[k]);
    const declared = role === "resource" ? withDeclaredTemplates(kind, values) : undefined;
    const where = declared?.constructPath ? `[${declared.constructPath}] ` : "";
    // Before anything copies the values: a copy drops a "__proto__" key (see reserved-keys.ts).
    const reserved = reservedKeyPath(config);
    if (reserved) {
      const steps = configSteps(kind.attributes, reserved);
      return [errorDiagnostic(`Invalid ${kind.typeName} configuration`, `${where}attribute "${formatAttributePath(steps)}": ${reservedKeyReason(reserved[reserved.length - 1])}`, steps)];
    }
    return validateDeclaration(kind, declared?.values ?? values).map((issue) =>
      errorDiagnostic(`Invalid ${kind.typeName} configuration`, `${where}attribute "${issue.path.join(".")}" ${issue.message}`, pathOf(issue.path)),
    );
  }

  validateResourceConfig(typeName: string, config: TfObject): readonly Diagnostic[] {
    return this.validate(this.kind(typeName), config, "resource");
  }

  private ephemeralKind(typeName: string): EphemeralKind {
    const k = ephemeralKind(typeName);
    if (!k) throw new Error(`unknown ephemeral resource ${typeName}`);
    return k;
  }

  validateEphemeralResourceConfig(typeName: string, config: TfObject): readonly Diagnostic[] {
    return this.validate(this.ephemeralKind(typeName), config);
  }

  /** Opens the object (a token) for this run; its id and expiry go in the private bytes close and renew get. */
  async openEphemeralResource(request: OpenEphemeralRequest): Promise<OpenEphemeralResult> {
    const kind = this.ephemeralKind(request.typeName);
    if (containsUnknown(toModel(request.config))) throw new Error(`ephemeral ${kind.typeName}: its configuration must be known when Terraform opens it`);
    const problems = this.validate(kind, request.config);
    if (problems.length > 0) return { diagnostics: problems };
    const declared: Values = {};
    for (const [k, v] of Object.entries(request.config)) if (v !== null) declared[k] = toModel(v);
    const openedAtMs = Date.now();
    const opened = await lifecycle.openEphemeral(this.context(), kind, declared, openedAtMs);
    const record: EphemeralRecord = { id: opened.id, expiresAtMs: opened.expiresAtMs };
    return {
      result: shapeObject(kind.attributes, opened.values),
      renewAt: new Date(lifecycle.renewAtMs(openedAtMs, opened.expiresAtMs)),
      private: new Uint8Array(Buffer.from(JSON.stringify(record))),
    };
  }

  /**
   * The service cannot extend a token's expiry: renew changes nothing and says when the
   * token ends, so a run that outlasts it knows why its later calls are refused.
   */
  renewEphemeralResource(request: RenewEphemeralRequest): RenewEphemeralResult {
    const kind = this.ephemeralKind(request.typeName);
    const record = ephemeralRecord(request.private);
    const when = new Date(record.expiresAtMs).toISOString();
    return {
      diagnostics: [
        warningDiagnostic(
          `ephemeral ${kind.typeName} ${record.id} expires at ${when}`,
          `${sentence(kind.renewal).slice(0, -1)} Raise ${kind.lifetime.attribute} (at most "${kind.lifetime.max}") if the run needs it longer.`,
        ),
      ],
    };
  }

  /** Deletes the opened object (revokes the token); one already gone is fine. */
  async closeEphemeralResource(request: CloseEphemeralRequest): Promise<{ diagnostics?: Diagnostic[] }> {
    const kind = this.ephemeralKind(request.typeName);
    await lifecycle.closeEphemeral(this.context(), kind, ephemeralRecord(request.private).id);
    return {};
  }

  validateDataSourceConfig(typeName: string, config: TfObject): readonly Diagnostic[] {
    const k = dataSourceKind(typeName);
    return k ? this.validate(k, config) : [];
  }

  /**
   * Ids this provider process has seen in Terraform's state, per type: a create whose
   * answer was lost never takes over one of them (the same rule as `ods apply`, whose
   * state file lists them all; a provider only sees the states Terraform sends it).
   */
  private readonly managed = new Map<string, Map<string, string | undefined>>();

  /**
   * Remembers a managed id with its natural key (a new state may carry a new key).
   * `fromTerraform`: Terraform sent this state, so it holds the object; an apply's own
   * answer may still be lost with a killed Terraform.
   */
  private remember(kind: ResourceKind, state: TfObject | null, fromTerraform = true): void {
    const id = state?.id;
    if (typeof id !== "string") return;
    if (fromTerraform) this.creations.seen(id);
    const ids = this.managed.get(kind.typeName) ?? new Map<string, string | undefined>();
    // Only the key's attributes are converted: every refresh and plan passes here.
    const keyValues: Values = {};
    for (const name of kind.naturalKey) keyValues[name] = toModel(state![name]);
    ids.set(id, naturalKeyText(kind, keyValues));
    this.managed.set(kind.typeName, ids);
  }

  /**
   * A provider sees one resource at a time, so two resources with one natural key cannot
   * be refused at plan as `ods plan` does; the second create is refused before it writes
   * when another resource of the run already manages an object with that key.
   */
  private keyHolder(kind: ResourceKind, values: Values): string | undefined {
    const key = naturalKeyText(kind, values);
    if (key === undefined) return undefined;
    for (const [id, k] of this.managed.get(kind.typeName) ?? []) if (k === key) return id;
    return undefined;
  }

  private context(): LifecycleContext {
    return {
      client: this.api(),
      live: this.live,
      isManaged: (kind, id) => this.managed.get(kind.typeName)?.has(id) === true,
    };
  }

  async readResource(request: { typeName: string; currentState: TfObject }): Promise<{ newState: TfObject | null }> {
    const kind = this.kind(request.typeName);
    const prior = request.currentState;
    const id = typeof prior.id === "string" ? prior.id : undefined;
    if (!id) return { newState: null };
    this.remember(kind, prior);
    const priorValues = modelOf(prior);
    const live = await this.live.loadById(this.api(), kind, scopeOf(kind, priorValues), id);
    if (!live) return { newState: null };
    return { newState: mergeLive(kind.attributes, prior, priorValues, liveValues(kind, live, priorValues)) };
  }

  async planResourceChange(request: {
    typeName: string;
    priorState: TfObject | null;
    proposedNewState: TfObject | null;
    config: TfObject | null;
    priorPrivate?: Uint8Array;
  }): Promise<{ plannedState: TfObject | null; requiresReplace?: AttributePath[]; diagnostics?: Diagnostic[]; plannedPrivate?: Uint8Array }> {
    const { oldSecret, ...change } = this.planChange(request);
    const result = await this.planChecked(request, change);
    if (!oldSecret || (result.diagnostics ?? []).some((d) => d.severity === "error")) return result;
    // Like `ods plan`, a rotation or replacement says when the old secret stops working
    // (one rule, lifecycle's oldSecretEnd): a CI consumer of the old one breaks then.
    const name = String(request.priorState?.name ?? request.priorState?.id ?? "");
    const warning = warningDiagnostic(`${request.typeName} "${name}": ${oldSecret.text}`, "Hand the new secret to every consumer of the old one before then, or set a longer rotation_grace_period.");
    return { ...result, diagnostics: [...(result.diagnostics ?? []), warning] };
  }

  /** The plan of one change with the checks that read the service (namesakes, license, plan-time checks). */
  private async planChecked(
    request: { typeName: string; priorState: TfObject | null; priorPrivate?: Uint8Array },
    change: { plannedState: TfObject | null; requiresReplace?: AttributePath[]; diagnostics?: Diagnostic[] },
  ): Promise<{ plannedState: TfObject | null; requiresReplace?: AttributePath[]; diagnostics?: Diagnostic[]; plannedPrivate?: Uint8Array }> {
    const hasPrivate = (request.priorPrivate?.length ?? 0) > 0;
    // An existing object's plan always hands on private bytes: Terraform passes them as the
    // prior private of the create it plans next when it replaces the object (a forced
    // replacement, -replace), which is how that create knows it is the object's own.
    const result = { ...change, ...(request.priorState && !hasPrivate ? { plannedPrivate: REPLACEABLE_PRIVATE } : {}) };
    const planned = result.plannedState;
    const kind = this.kind(request.typeName);
    if (!request.priorState && !hasPrivate && planned && (result.diagnostics ?? []).length === 0) {
      const refusal = await this.createRefusal(kind, modelOf(planned));
      if (refusal) return { ...result, diagnostics: [refusal] };
    }
    // Only what this plan changes can pass a limit (a no-op reads no license).
    if (planned && kind.license && (result.diagnostics ?? []).length === 0 && (!request.priorState || comparable(toModel(request.priorState)) !== comparable(toModel(planned)))) {
      const over = await this.licenseRefusal(kind, modelOf(planned), !request.priorState || (result.requiresReplace ?? []).length > 0);
      if (over) return { ...result, diagnostics: [over] };
    }
    const existing = request.priorState !== null && (result.requiresReplace ?? []).length === 0;
    if (!planned || !wantsPlanCheck(kind, existing) || (result.diagnostics ?? []).length > 0) return result;
    // Compared only for the kinds with a plan-time check (most plans are of other kinds).
    const changes = !request.priorState || comparable(toModel(request.priorState)) !== comparable(toModel(planned));
    if (changes) {
      const values = modelOf(planned);
      // A field to claim that its dataset's list shows exists needs no reads of its own.
      if (await claimListed(this.api(), this.live, kind, values)) return result;
      const problem = await this.runCheck(kind, values);
      if (problem) return { ...result, diagnostics: [problem] };
      const warnings = planCheckWarnings(kind, values).map((w) =>
        warningDiagnostic(`Questionable value in ${kind.typeName}`, describeProblem(w), problemPath(w.attribute)),
      );
      warnings.push(...(await this.strayDatasets(kind, values)));
      const insight = await this.insight(kind, values, request.priorState && !result.requiresReplace?.length ? request.priorState : null);
      const diagnostics = insight ? [...warnings, insight] : warnings;
      if (diagnostics.length > 0) return { ...result, diagnostics };
    }
    return result;
  }

  /**
   * What the organization's license refuses of this object, as far as one resource's plan
   * can count: the live counts plus this create, and its query windows. Terraform plans
   * resources one by one, so a configuration that passes a limit only with several creates
   * is refused by the service at apply (`ods plan` counts the whole plan).
   */
  private async licenseRefusal(kind: ResourceKind, values: Values, creating: boolean): Promise<Diagnostic | undefined> {
    // Computed attributes are unknown in a create's plan; each check reads only known values.
    const use = kind.license!;
    const counted = creating && (use.counts !== undefined || (use.fieldOf !== undefined && kind.creation === "create"));
    if (!counted && !use.queryWindowSeconds && !(use.insightWindowSeconds && this.backtestDays)) return undefined;
    const name = values[kind.naturalKey[kind.naturalKey.length - 1]];
    const what = typeof name === "string" ? `${kind.typeName} "${name}"` : kind.typeName;
    const license = await this.licenses.license();
    let problems: string[];
    try {
      problems = await objectLicenseProblems(this.api(), this.live, kind, values, { creating, what, license, backtestDays: this.backtestDays });
    } catch (err) {
      // A token that may not list what is counted cannot check at plan; the service refuses at apply.
      if (err instanceof OdsApiError && (err.status === 403 || err.status === 401)) return undefined;
      throw err;
    }
    return problems.length > 0 ? errorDiagnostic(`Over the organization's license: ${kind.typeName}`, `${problems.join("; ")}.`) : undefined;
  }

  /**
   * A create is refused at plan when a live object has its natural key, unless this
   * provider holds evidence that it created that object and Terraform never stored it (a
   * killed apply): then the apply adopts it. Any other such object may be managed by
   * another address (a renamed resource), whose destroy would delete what a create had
   * adopted; or it was made outside Terraform. Either way: refused, naming the id.
   */
  private async createRefusal(kind: ResourceKind, values: Values, fresh = false): Promise<Diagnostic | undefined> {
    const key = naturalKeyText(kind, values);
    if (key === undefined || kind.creation === "claim") return undefined;
    const ctx = this.context();
    let found: WireObject[];
    try {
      found = await lifecycle.namesakes(ctx, kind, values, fresh);
    } catch (err) {
      // A token that may not list the kind cannot check at plan; the apply lists again before it writes.
      if (!fresh && err instanceof OdsApiError && (err.status === 403 || err.status === 401)) return undefined;
      throw err;
    }
    for (const o of found) {
      const id = kind.api.idOf(o);
      const managed = ctx.isManaged(kind, id);
      // Managed, and planned under another key in this run: its rename frees this one.
      if (managed && this.managed.get(kind.typeName)?.get(id) !== key) continue;
      // Planned for replacement: this create is its second half (Terraform plans it with no prior).
      if (managed && this.replacing.has(`${kind.typeName}:${id}`)) continue;
      if (!managed && this.creations.holds(creationKey(kind.typeName, key), id)) continue;
      return errorDiagnostic(`Refusing to create ${kind.typeName}: ${kind.naturalKey.join(" and ")} ${key} exists as ${id}`, lifecycle.namesakeRefusal(kind, values, id, managed));
    }
    return undefined;
  }

  /**
   * Datasets its queries name that neither exist nor are declared by the configuration
   * Terraform runs (read from its working directory): warning diagnostics, as `ods plan`
   * warns. Without a configuration to read, what it creates is unknown: nothing is said.
   */
  private async strayDatasets(kind: ResourceKind, values: Values): Promise<Diagnostic[]> {
    if (!kind.warnsOfStrayDatasets) return [];
    const declared = declaredDatasets();
    if (!declared) return [];
    const found = await strayDatasetWarnings(this.api(), kind, values, { declared, memo: this.reads });
    return found.map((w) => warningDiagnostic(`Dataset not found for ${kind.typeName} "${String(values.name ?? "")}"`, describeProblem(w), problemPath(w.attribute)));
  }

  /**
   * The kind's plan insight (a monitor's backtest) as a warning diagnostic, the one kind
   * of note terraform plan shows, when the provider block sets backtest_days.
   */
  private async insight(kind: ResourceKind, values: Values, prior: TfObject | null): Promise<Diagnostic | undefined> {
    if (!this.backtestDays || !kind.planInsight) return undefined;
    const live = prior && typeof prior.id === "string" ? { id: prior.id, values: modelOf(prior) } : undefined;
    // One process serves one terraform command: its insights share answers and one "now", as
    // `ods plan`'s do, so an SLO's monitors read its counts once, not once per monitor.
    this.insightNowMs ??= Date.now();
    const outcome = await runPlanInsight(this.api(), kind, values, live, { days: this.backtestDays, nowMs: this.insightNowMs, answers: this.insightAnswers });
    if (!outcome) return undefined;
    const summary = outcome.kind === "report" ? outcome.report.summary : outcome.reason;
    return warningDiagnostic(`${kind.typeName} "${String(values.name ?? "")}": ${summary}`, outcome.kind === "report" ? outcome.report.lines.join("\n") : undefined);
  }

  /** The same check as `ods plan` (a query compiled by the service); skipped when the service cannot check. */
  private async runCheck(kind: ResourceKind, values: Values): Promise<Diagnostic | undefined> {
    const key = this.passedChecks && kind.planCheck?.answerDependsOnlyOnValues ? checkKey(kind, values) : undefined;
    const reused = key !== undefined && this.passedChecks?.passed(key) === true;
    if (reused && !kind.planCheck?.liveCheck) return undefined;
    // Every monitor's check read the notifier list anew: about a quarter of an apply's requests.
    const outcome = await runPlanCheck(this.api(), kind, values, { seesWholePlan: false, memo: this.reads }, reused);
    if (outcome.kind === "ok" && key && !reused) this.passedChecks?.remember(key);
    if (outcome.kind !== "problem") return undefined;
    const title = kind.planCheck?.title ?? "Invalid value";
    return errorDiagnostic(`${title} in ${kind.typeName}`, describeProblem(outcome.problem), problemPath(outcome.problem.attribute));
  }

  private planChange(request: {
    typeName: string;
    priorState: TfObject | null;
    proposedNewState: TfObject | null;
    config: TfObject | null;
  }): { plannedState: TfObject | null; requiresReplace?: AttributePath[]; diagnostics?: Diagnostic[]; oldSecret?: lifecycle.OldSecretEnd } {
    const kind = this.kind(request.typeName);
    const { priorState: prior, proposedNewState: proposed } = request;
    this.remember(kind, prior);
    const priorValues = prior ? modelOf(prior) : undefined;
    if (!proposed) {
      const refusal = priorValues ? deletionRefusal(kind, priorValues, priorValues, String(prior?.id), "") : undefined;
      if (refusal) {
        return {
          plannedState: null,
          diagnostics: [errorDiagnostic(`Refusing to delete ${kind.typeName} "${String(prior?.name ?? prior?.id)}"`, sentence(refusal))],
        };
      }
      return { plannedState: null };
    }
    const proposedValues = modelOf(proposed);
    const declared = applyDefaults(kind, proposedValues);
    const changed = priorValues ? changedSinceLastApply(kind, declared, priorValues) : [];
    const objectIsNew = !priorValues || issuesNewObject(kind, changed);
    const plannedModel = plannedValues(kind, {
      declared,
      configured: request.config ? modelOf(request.config) : null,
      prior: priorValues,
      objectIsNew,
      anyChange: changed.length > 0,
      everyAttribute: true,
    });
    // Only what the rules changed is converted back; the rest stays as Terraform sent it.
    // When they changed nothing, the proposed object itself: the server answers it with
    // the bytes Terraform sent.
    let planned: TfObject = proposed;
    for (const [name, attr] of Object.entries(kind.attributes)) {
      if (plannedModel[name] === proposedValues[name]) continue;
      if (planned === proposed) planned = { ...proposed };
      planned[name] = shape(attr, plannedModel[name]);
    }
    // The key the object will have (a rename frees the old one for another resource).
    if (prior && typeof planned.id === "string") this.remember(kind, planned);
    if (!prior || !priorValues) return { plannedState: planned };
    const replaceBy = RequiresReplace.among(kind, changed);
    // The configuration being applied allows it, as ods apply reads it: a rename may come with allow_destroy = true.
    const refusal = replaceBy.length > 0 ? replacementRefusal(kind, declared, [`${replaceBy.join(", ")} cannot be changed in place`]) : undefined;
    if (refusal) {
      return {
        plannedState: planned,
        diagnostics: [errorDiagnostic(`Refusing to replace ${kind.typeName} "${String(prior.name)}"`, sentence(refusal))],
      };
    }
    if (replaceBy.length > 0 && typeof prior.id === "string") this.replacing.add(`${kind.typeName}:${prior.id}`);
    // A new object of a rotating kind (a new id planned) ends the old secret; a grace period
    // Terraform learns only at apply gives no moment to name.
    const graceKnown = !kind.rotation || !containsUnknown(declared[kind.rotation.gracePeriodAttribute] ?? null);
    const oldSecret = objectIsNew && graceKnown ? lifecycle.oldSecretEnd(kind, declared, replaceBy.length > 0 ? "replacement" : "change") : undefined;
    return { plannedState: planned, requiresReplace: replaceBy.map((n) => [n]), ...(oldSecret ? { oldSecret } : {}) };
  }

  /** Fills the planned state's unknowns (and computed values) from the service's answer. */
  private completed(kind: ResourceKind, planned: TfObject, answer: lifecycle.Answer): TfObject {
    const live = liveValues(kind, answer, modelOf(planned));
    const out: TfObject = { ...planned };
    for (const [name, attr] of Object.entries(kind.attributes)) {
      if (containsUnknown(toModel(out[name]))) out[name] = shape(attr, live[name]);
    }
    // A creation or rotation answers a new secret; otherwise the planned (prior) secret stays.
    const secret = secretOfAnswer(kind, answer);
    if (secret !== undefined && kind.rotation) out[kind.rotation.secretAttribute] = secret;
    return out;
  }

  async applyResourceChange(request: {
    typeName: string;
    priorState: TfObject | null;
    plannedState: TfObject | null;
    config?: TfObject | null;
  }): Promise<{ newState?: TfObject | null; diagnostics?: Diagnostic[] }> {
    try {
      return await this.applyChange(request);
    } finally {
      // Written (or perhaps written, on a failure): a check planned after this one lists the kind again.
      this.reads.delete(request.typeName);
    }
  }

  private async applyChange(request: {
    typeName: string;
    priorState: TfObject | null;
    plannedState: TfObject | null;
    config?: TfObject | null;
  }): Promise<{ newState?: TfObject | null; diagnostics?: Diagnostic[] }> {
    const kind = this.kind(request.typeName);
    const { priorState: prior, plannedState: planned } = request;
    const ctx = this.context();
    this.remember(kind, prior);
    if (!planned) {
      if (prior) await lifecycle.remove(ctx, kind, String(prior.id));
      if (prior) this.managed.get(kind.typeName)?.delete(String(prior.id));
      this.live.invalidate(kind);
      return { newState: null };
    }
    // Write-only values are in the configuration alone (Terraform plans them as null).
    const values = request.config ? withWriteOnlyFrom(kind.attributes, modelOf(planned), modelOf(request.config)) : modelOf(planned);
    let answer: lifecycle.Answer;
    if (!prior) {
      const holder = this.keyHolder(kind, values);
      if (holder) {
        const key = `${kind.naturalKey.join(" and ")} ${naturalKeyText(kind, values) ?? ""}`;
        return { diagnostics: [errorDiagnostic(`Duplicate ${kind.typeName}`, `Another resource of this configuration already manages the ${kind.typeName} ${holder} with ${key}; each object must be declared once.`)] };
      }
      const outcome = await this.createOrAdoptOwn(ctx, kind, values);
      if ("refusal" in outcome) return { diagnostics: [outcome.refusal] };
      answer = outcome.answer;
    } else if (kind.rotation) {
      if (!isUnknown(planned.id ?? null)) return { newState: { ...planned } }; // engine-only settings changed
      // Terraform's prior state is the refresh: a live expiry that moved shows a rotation
      // whose answer was lost, finished on the object it made (see lifecycle/rotation.ts).
      answer = await lifecycle.rotate(ctx, kind, String(prior.id), values, "change", { observed: modelOf(prior) });
    } else {
      const last = modelOf(prior);
      answer = await lifecycle.update(ctx, kind, String(prior.id), values, last, last);
    }
    const newState = this.completed(kind, planned, answer);
    this.remember(kind, newState, false);
    // A claimed object's answer is the object as the service now holds it: the list keeps
    // serving the other claims of its parent. For other kinds, lists cached before this
    // write no longer tell the truth about the kind (a rotation adds an object, say).
    // A create's answer is likewise the new object: recording it keeps the list true
    // without asking the service again before the next create (one list per kind per
    // apply, not one per object).
    if (kind.creation === "claim" || !prior) this.live.record(kind, scopeOf(kind, values), answer);
    else this.live.invalidate(kind);
    return { newState };
  }

  /**
   * Creates the object; after a killed apply, the object this provider's create made may
   * exist unmanaged: it is adopted, never made twice. Any other object with the key is
   * refused (as at plan: the list is asked again before the kind's first write).
   */
  private async createOrAdoptOwn(ctx: LifecycleContext, kind: ResourceKind, values: Values): Promise<{ answer: lifecycle.Answer } | { refusal: Diagnostic }> {
    const text = kind.creation === "claim" ? undefined : naturalKeyText(kind, values);
    if (text === undefined) return { answer: (await lifecycle.create(ctx, kind, values)).live };
    const key = creationKey(kind.typeName, text);
    // The list is asked again right before the first write of the kind in this apply;
    // this process's own writes keep it true from then on (see applyResourceChange).
    const fresh = !this.listedForApply.has(kind.typeName);
    this.listedForApply.add(kind.typeName);
    const refusal = await this.createRefusal(kind, values, fresh);
    if (refusal) return { refusal };
    const own = (await lifecycle.namesakes(ctx, kind, values)).find((o) => !ctx.isManaged(kind, kind.api.idOf(o)));
    if (own && kind.rotation && kind.api.remove) {
      // Its secret went with the killed apply: removed (a token revoked) and made anew
      // below, rather than rotated, which would leave an expiring second record.
      await lifecycle.remove(ctx, kind, kind.api.idOf(own));
      ctx.live.invalidate(kind);
    } else if (own) return { answer: await lifecycle.bringInLine(ctx, kind, own, values, { holdsSecret: false }) };
    this.creations.intent(key);
    let made: lifecycle.Answer;
    try {
      made = (await lifecycle.create(ctx, kind, values)).live;
    } catch (err) {
      // Refused for sure: nothing was made. A lost answer leaves the intent standing.
      if (!(err instanceof OdsApiError && err.requestMayHaveBeenApplied)) this.creations.failed(key);
      throw err;
    }
    this.creations.made(key, kind.api.idOf(made));
    return { answer: made };
  }

  async importResourceState(request: { typeName: string; id: string }): Promise<{ imported: { typeName: string; state: TfObject }[] }> {
    const kind = this.kind(request.typeName);
    const live = await kind.api.read(this.api(), request.id);
    if (!live) throw new Error(`no ${kind.typeName} with id "${request.id}" (expected ${kind.importIdFormat})`);
    const state = shapeObject(kind.attributes, importValues(kind, live));
    this.remember(kind, state);
    return { imported: [{ typeName: kind.typeName, state }] };
  }

  /** Old states are brought to the kind's current schema by the upgraders its file declares. */
  upgradeResourceState(request: UpgradeStateRequest): UpgradeStateResult {
    const kind = this.kind(request.typeName);
    try {
      return { upgradedState: shapeObject(kind.attributes, upgradeValues(kind, { ...request.rawState }, request.version)) };
    } catch (err) {
      return { upgradedState: null, diagnostics: [errorDiagnostic(`Cannot upgrade the stored ${kind.typeName} state`, (err as Error).message)] };
    }
  }

  async readDataSource(request: { typeName: string; config: TfObject }): Promise<{ state: TfObject | null }> {
    const kind = dataSourceKind(request.typeName);
    if (!kind) throw new Error(`unknown data source ${request.typeName}`);
    const config = toModel(request.config) as Values;
    const values = await kind.api.read(this.api(), config, { orgId: this.orgId });
    const merged: Values = {};
    for (const name of Object.keys(kind.attributes)) merged[name] = values[name] ?? config[name] ?? null;
    return { state: shapeObject(kind.attributes, merged) };
  }
}
