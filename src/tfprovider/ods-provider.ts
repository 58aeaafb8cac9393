// The ODS resource model served as a Terraform provider: the same kinds, validation,
// API bindings and comparison rules as `ods plan/apply`, behind the generic plugin
// server's ProviderImpl contract.
import { OdsApiError, OdsClient, resolveClientConfig } from "../api";
import {
  type Attribute,
  type Attributes,
  type DataSourceKind,
  type ResourceKind,
  type Values,
  type WireObject,
  dataSourceKind,
  fromWire,
  isNested,
  normalizeValue,
  providersSchemaJson,
  PROVIDER_SOURCE,
  resourceKind,
  sameValue,
  toWire,
  validateDeclaration,
} from "../resources";
import { durationMillis } from "../resources/checks";
import { LiveIndex } from "../reconcile/world";
import { matchesNaturalKey } from "../reconcile/plan";
import { oldSecretExpiry } from "../resources/api-token";
import { QueryCheckUnsupported, checkStarredQuery, checkVirtualField, describeProblem } from "../reconcile/query-check";
import { errorDiagnostic, type AttributePath, type Diagnostic } from "./diagnostics";
import type { ProviderImpl } from "./provider-impl";
import type { ProviderSchemaJson } from "./schema-json";
import { UNKNOWN, isUnknown, type TfObject, type TfValue } from "./values";

type Path = (string | number)[];

/** Plain JS values for the model: unknowns become unresolved references, bigints numbers. */
function toModel(v: TfValue | undefined): unknown {
  if (v === undefined || v === null) return null;
  if (isUnknown(v)) return "${unknown}";
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(toModel);
  if (typeof v === "object") {
    const out: Values = {};
    for (const [k, x] of Object.entries(v)) out[k] = toModel(x);
    return out;
  }
  return v;
}

function hasUnknown(v: TfValue | undefined): boolean {
  if (v === undefined || v === null) return false;
  if (isUnknown(v)) return true;
  if (Array.isArray(v)) return v.some(hasUnknown);
  if (typeof v === "object" && typeof v !== "bigint") return Object.values(v as TfObject).some(hasUnknown);
  return false;
}

/** A value shaped to the schema: every attribute of a nested object present (null when unset). */
function shape(attr: Attribute, v: unknown): TfValue {
  if (v === undefined || v === null) return null;
  if (!isNested(attr)) return v as TfValue;
  if (attr.type === "object") return shapeObject(attr.attributes, v as Values);
  if (attr.type === "object_list") return (v as Values[]).map((x) => shapeObject(attr.attributes, x));
  const out: TfObject = {};
  for (const [k, x] of Object.entries(v as Record<string, Values>)) out[k] = shapeObject(attr.attributes, x);
  return out;
}

function shapeObject(attrs: Attributes, values: Values): TfObject {
  const out: TfObject = {};
  for (const [name, attr] of Object.entries(attrs)) out[name] = shape(attr, values[name]);
  return out;
}

/**
 * What a refresh returns: the live value, except where it equals the prior one under the
 * model's comparison (server defaults, order of set-like lists, timestamp forms) — then
 * the prior value, so that no perpetual diff appears. Secrets and engine-only settings
 * cannot be read back and keep their prior values.
 */
function mergeLive(attrs: Attributes, prior: TfObject, live: Values): TfObject {
  const out: TfObject = {};
  for (const [name, attr] of Object.entries(attrs)) {
    const p = prior[name] ?? null;
    if (attr.engineOnly || attr.secret) {
      out[name] = p;
    } else if (isNested(attr) && attr.type === "object" && p !== null && live[name] !== null && live[name] !== undefined && !isUnknown(p)) {
      out[name] = mergeLive(attr.attributes, p as TfObject, live[name] as Values);
    } else if (sameValue(attr, toModel(p), live[name])) {
      out[name] = p;
    } else {
      out[name] = shape(attr, live[name]);
    }
  }
  return out;
}

function isComputedOnly(attr: Attribute): boolean {
  return attr.computed === true && !attr.required && !attr.optional;
}

function pathOf(path: Path): AttributePath {
  return path.map((p) => p);
}

export class OdsTerraformProvider implements ProviderImpl {
  private client?: OdsClient;
  private orgId?: string;
  /** One list call per kind (per dataset) per provider process serves every refresh. */
  private readonly live = new LiveIndex();

  schema(): ProviderSchemaJson {
    return providersSchemaJson().provider_schemas[PROVIDER_SOURCE] as unknown as ProviderSchemaJson;
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
      this.client = new OdsClient(
        resolveClientConfig({
          url: str("url"),
          token: str("token"),
          orgId: str("org_id"),
          rateLimitPerSecond: typeof rate === "number" ? rate : undefined,
          timeoutMs: timeout ? durationMillis(timeout) : undefined,
        }),
      );
      this.orgId = this.client.config.orgId;
    } catch (err) {
      return [errorDiagnostic("Invalid provider configuration", (err as Error).message)];
    }
    return [];
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

  private validate(kind: ResourceKind | DataSourceKind, config: TfObject): Diagnostic[] {
    const values = toModel(config) as Values;
    for (const [k, v] of Object.entries(values)) if (v === null) delete values[k];
    return validateDeclaration(kind, values).map((issue) =>
      errorDiagnostic(`Invalid ${kind.typeName} configuration`, `attribute "${issue.path.join(".")}" ${issue.message}`, pathOf(issue.path)),
    );
  }

  validateResourceConfig(typeName: string, config: TfObject): readonly Diagnostic[] {
    return this.validate(this.kind(typeName), config);
  }

  validateDataSourceConfig(typeName: string, config: TfObject): readonly Diagnostic[] {
    const k = dataSourceKind(typeName);
    return k ? this.validate(k, config) : [];
  }

  private async findLive(kind: ResourceKind, id: string, dataset?: string): Promise<WireObject | undefined> {
    const list = await this.live.load(this.api(), kind, kind.api.listScope === "dataset" ? dataset : undefined);
    return list.find((o) => kind.api.idOf(o) === id);
  }

  async readResource(request: { typeName: string; currentState: TfObject }): Promise<{ newState: TfObject | null }> {
    const kind = this.kind(request.typeName);
    const prior = request.currentState;
    const id = typeof prior.id === "string" ? prior.id : undefined;
    if (!id) return { newState: null };
    const dataset = typeof prior.dataset === "string" ? prior.dataset : undefined;
    const live = await this.findLive(kind, id, dataset);
    if (!live) return { newState: null };
    const shaped = kind.api.normalizeLive ? kind.api.normalizeLive(live, toModel(prior) as Values) : live;
    return { newState: mergeLive(kind.attributes, prior, fromWire(kind.attributes, shaped)) };
  }

  async planResourceChange(request: {
    typeName: string;
    priorState: TfObject | null;
    proposedNewState: TfObject | null;
    config: TfObject | null;
  }): Promise<{ plannedState: TfObject | null; requiresReplace?: AttributePath[]; diagnostics?: Diagnostic[] }> {
    const result = this.planChange(request);
    const planned = result.plannedState;
    const changes = !request.priorState || JSON.stringify(toModel(request.priorState)) !== JSON.stringify(toModel(planned));
    if (planned && changes && !hasUnknown(planned.dataset) && !(result.diagnostics ?? []).length) {
      const problem = await this.checkQuery(request.typeName, planned);
      if (problem) return { ...result, diagnostics: [problem] };
    }
    return result;
  }

  /**
   * The same check as `ods plan`: a starred query or virtual-field expression that will be
   * written is compiled by the service first. Skipped when the service answers no queries.
   */
  private async checkQuery(typeName: string, planned: TfObject): Promise<Diagnostic | undefined> {
    if ((typeName !== "ods_starred_query" && typeName !== "ods_virtual_field") || hasUnknown(planned.query) || hasUnknown(planned.expression)) return undefined;
    const values = toModel(planned) as Values;
    try {
      const problem = typeName === "ods_starred_query" ? await checkStarredQuery(this.api(), values) : await checkVirtualField(this.api(), values);
      if (!problem) return undefined;
      return errorDiagnostic(`Invalid query in ${typeName}`, describeProblem(problem), problem.attribute.split("."));
    } catch (err) {
      if (err instanceof QueryCheckUnsupported) return undefined;
      // An unknown dataset (created in the same apply) cannot be checked yet.
      if (err instanceof OdsApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  private planChange(request: {
    typeName: string;
    priorState: TfObject | null;
    proposedNewState: TfObject | null;
    config: TfObject | null;
  }): { plannedState: TfObject | null; requiresReplace?: AttributePath[]; diagnostics?: Diagnostic[] } {
    const kind = this.kind(request.typeName);
    const { priorState: prior, proposedNewState: proposed } = request;
    if (!proposed) {
      if (prior && kind.deletion === "guarded" && prior.allow_destroy !== true) {
        return {
          plannedState: null,
          diagnostics: [errorDiagnostic(`Refusing to delete ${kind.typeName} "${String(prior.name ?? prior.id)}"`, "Deleting a dataset deletes all of its events. Set allow_destroy = true and apply first.")],
        };
      }
      return { plannedState: null };
    }
    const planned: TfObject = { ...proposed };
    for (const [name, attr] of Object.entries(kind.attributes)) {
      if (attr.default !== undefined && (planned[name] === null || planned[name] === undefined)) planned[name] = attr.default as TfValue;
    }
    if (!prior) {
      for (const [name, attr] of Object.entries(kind.attributes)) {
        if (isComputedOnly(attr) || (attr.computed && planned[name] === null)) planned[name] = UNKNOWN;
      }
      return { plannedState: planned };
    }
    const changed = Object.entries(kind.attributes)
      .filter(([, a]) => (a.required || a.optional) && !isComputedOnly(a))
      .filter(([name, a]) => hasUnknown(planned[name]) || (a.engineOnly || a.secret ? JSON.stringify(toModel(planned[name])) !== JSON.stringify(toModel(prior[name])) : !sameValue(a, toModel(planned[name]), toModel(prior[name]))))
      .map(([name]) => name);
    const replaceBy = changed.filter((n) => kind.attributes[n].forcesReplacement);
    const engineOnlyChange = changed.every((n) => kind.attributes[n].engineOnly && n !== "rotation_trigger");
    const newObject = replaceBy.length > 0 || (kind.changeStrategy === "rotate" && changed.length > 0 && !engineOnlyChange);
    for (const [name, attr] of Object.entries(kind.attributes)) {
      if (!isComputedOnly(attr) && !(attr.computed && request.config?.[name] === null)) continue;
      // Computed values keep their prior value unless the object is issued anew.
      planned[name] = newObject || (attr.computed && !isComputedOnly(attr) && changed.length > 0 && planned[name] === null) ? UNKNOWN : prior[name];
    }
    if (replaceBy.length > 0 && kind.deletion === "guarded" && prior.allow_destroy !== true) {
      return {
        plannedState: planned,
        diagnostics: [errorDiagnostic(`Refusing to replace ${kind.typeName} "${String(prior.name)}"`, `${replaceBy.join(", ")} cannot change in place, and replacing deletes all events. Set allow_destroy = true first.`)],
      };
    }
    return { plannedState: planned, requiresReplace: replaceBy.map((n) => [n]) };
  }

  private bodyOf(kind: ResourceKind, state: TfObject): WireObject {
    // An optional+computed attribute left unset is unknown until the service fills it: not sent.
    const known = Object.fromEntries(Object.entries(state).filter(([, v]) => !isUnknown(v ?? null)));
    const body = toWire(kind.attributes, toModel(known) as Values);
    return kind.api.shapeBody ? kind.api.shapeBody(body, "create") : body;
  }

  /** Fills the planned state's unknowns (and computed values) from the service's answer. */
  private completed(kind: ResourceKind, planned: TfObject, answer: WireObject): TfObject {
    const shaped = kind.api.normalizeLive ? kind.api.normalizeLive(answer, toModel(planned) as Values) : answer;
    const live = fromWire(kind.attributes, shaped);
    const out: TfObject = { ...planned };
    for (const [name, attr] of Object.entries(kind.attributes)) {
      if (isUnknown(out[name] ?? null) || hasUnknown(out[name])) out[name] = shape(attr, live[name]);
    }
    // A rotation answers a new secret; otherwise the planned (prior) secret stays.
    if (typeof answer.token === "string" && answer.token !== "" && "token" in kind.attributes) out.token = answer.token;
    return out;
  }

  private async createObject(kind: ResourceKind, body: WireObject, values: Values): Promise<WireObject> {
    try {
      return await kind.api.create(this.api(), body);
    } catch (err) {
      if (!(err instanceof OdsApiError) || !err.requestMayHaveBeenApplied) throw err;
      // The answer was lost after the request left: adopt what was made, never duplicate.
      this.live.invalidate(kind);
      const dataset = typeof values.dataset === "string" ? values.dataset : undefined;
      const list = await this.live.load(this.api(), kind, dataset);
      const found = list.find((o) => matchesNaturalKey(kind, o, values));
      if (!found) return kind.api.create(this.api(), body);
      // A token found this way has a secret nobody saw: issue a new one at once.
      if (kind.changeStrategy === "rotate" && kind.api.rotate) {
        return kind.api.rotate(this.api(), kind.api.idOf(found), body, oldSecretExpiry(undefined));
      }
      return found;
    }
  }

  async applyResourceChange(request: {
    typeName: string;
    priorState: TfObject | null;
    plannedState: TfObject | null;
  }): Promise<{ newState?: TfObject | null; diagnostics?: Diagnostic[] }> {
    const kind = this.kind(request.typeName);
    const { priorState: prior, plannedState: planned } = request;
    const client = this.api();
    if (!planned) {
      if (prior && kind.api.remove && kind.deletion !== "forget") {
        try {
          await kind.api.remove(client, String(prior.id));
        } catch (err) {
          if (!(err instanceof OdsApiError && err.status === 404)) throw err;
        }
      }
      return { newState: null };
    }
    const values = toModel(planned) as Values;
    const body = this.bodyOf(kind, planned);
    let answer: WireObject;
    if (!prior) {
      answer = await this.createObject(kind, body, values);
    } else if (kind.changeStrategy === "rotate") {
      if (!isUnknown(planned.id ?? null)) return { newState: { ...planned } }; // engine-only settings changed
      answer = await kind.api.rotate!(client, String(prior.id), body, oldSecretExpiry(values.rotation_grace_period));
    } else if (kind.api.update) {
      answer = await kind.api.update(client, String(prior.id), kind.api.shapeBody ? kind.api.shapeBody(body, "update") : body);
    } else {
      throw new Error(`${kind.typeName} cannot be updated`);
    }
    return { newState: this.completed(kind, planned, answer) };
  }

  async importResourceState(request: { typeName: string; id: string }): Promise<{ imported: { typeName: string; state: TfObject }[] }> {
    const kind = this.kind(request.typeName);
    const live = await kind.api.read(this.api(), request.id);
    if (!live) throw new Error(`no ${kind.typeName} with id "${request.id}" (expected ${kind.importIdFormat})`);
    const values = fromWire(kind.attributes, kind.api.normalizeLive ? kind.api.normalizeLive(live, undefined) : live);
    for (const [name, attr] of Object.entries(kind.attributes)) {
      if (attr.engineOnly && attr.default !== undefined) values[name] = attr.default;
      // The service answers "" or [] for what was never set: import that as unset, as a
      // config that leaves it out says, so the first plan after an import is empty.
      else if (!isComputedOnly(attr) && attr.default === undefined && normalizeValue(attr, values[name]) === null) values[name] = null;
    }
    return { imported: [{ typeName: kind.typeName, state: shapeObject(kind.attributes, values) }] };
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
