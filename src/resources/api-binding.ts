// How each kind calls the service. The engines only see `ResourceApi`: list, read,
// create, update (or rotate), remove. The wire bodies are built from the model
// (wire.ts) and checked by its validation, so the typed client methods receive them
// through one cast per call site below.
import type { OdsClient } from "../api";
import { OdsApiError } from "../api";
import type { Values } from "./kind";

export type WireObject = Record<string, unknown>;

export interface ResourceApi {
  /** `organization`: one list call returns every object; `dataset`: one list per dataset. */
  listScope: "organization" | "dataset";
  list(client: OdsClient, dataset?: string): Promise<WireObject[]>;
  /** The live object, or undefined when it is gone. */
  read(client: OdsClient, id: string): Promise<WireObject | undefined>;
  /**
   * `current`, when the caller has it, is the object as last listed: a kind whose write
   * replaces the whole object (a dataset field) merges into it instead of reading it first.
   */
  create(client: OdsClient, body: WireObject, current?: WireObject): Promise<WireObject>;
  update?(client: OdsClient, id: string, body: WireObject, current?: WireObject): Promise<WireObject>;
  /** Issues a replacement object (new id); the old one works until `existingExpiresAt`. */
  rotate?(client: OdsClient, id: string, body: WireObject, existingExpiresAt: string): Promise<WireObject>;
  /** Undefined for kinds that are forgotten, not deleted. */
  remove?(client: OdsClient, id: string): Promise<void>;
  idOf(live: WireObject): string;
  /**
   * Fixes up a live object before the generic wire-to-values mapping, where the service
   * answers in another shape than it takes (a user's role comes back as {id, name}).
   */
  normalizeLive?(live: WireObject, declared: Values | undefined): WireObject;
  /** The wire body for create/update, when it differs from the generic mapping. */
  shapeBody?(body: WireObject, operation: "create" | "update"): WireObject;
}

export interface DataSourceContext {
  orgId?: string;
}

export interface DataSourceApi {
  /** Reads the data source; answers its values (snake_case, as the schema names them). */
  read(client: OdsClient, config: Values, context: DataSourceContext): Promise<Values>;
}

/** Undefined for a 404, so that a vanished object reads as absent. */
export async function readOrUndefined<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof OdsApiError && err.status === 404) return undefined;
    throw err;
  }
}

// The client's methods are typed per kind; the engines pass model-built objects.
type AnyBody = never;
type Call<R> = Promise<R>;

interface CrudCalls {
  list: (c: OdsClient) => Call<unknown[]>;
  read: (c: OdsClient, id: string) => Call<unknown>;
  create: (c: OdsClient, body: AnyBody) => Call<unknown>;
  update?: (c: OdsClient, id: string, body: AnyBody) => Call<unknown>;
  rotate?: (c: OdsClient, id: string, body: AnyBody, existingTokenExpiresAt: string) => Call<unknown>;
  remove: (c: OdsClient, id: string) => Call<unknown>;
}

const idField = (live: WireObject): string => String(live.id);

/** A kind whose objects all come back from one organization-wide list call. */
export function organizationApi(calls: CrudCalls): ResourceApi {
  return {
    listScope: "organization",
    list: async (c) => (await calls.list(c)) as WireObject[],
    read: (c, id) => readOrUndefined(() => calls.read(c, id) as Promise<WireObject>),
    create: async (c, body) => (await calls.create(c, body as AnyBody)) as WireObject,
    update: calls.update ? async (c, id, body) => (await calls.update!(c, id, body as AnyBody)) as WireObject : undefined,
    rotate: calls.rotate
      ? async (c, id, body, until) => (await calls.rotate!(c, id, body as AnyBody, until)) as WireObject
      : undefined,
    remove: async (c, id) => {
      await calls.remove(c, id);
    },
    idOf: idField,
  };
}

interface DatasetCrudCalls extends Omit<CrudCalls, "list"> {
  list: (c: OdsClient, dataset: string) => Call<unknown[]>;
}

/** A kind listed per dataset (virtual fields, starred queries). */
export function datasetScopedApi(calls: DatasetCrudCalls): ResourceApi {
  const base = organizationApi({ ...calls, list: () => Promise.resolve([]) });
  return {
    ...base,
    listScope: "dataset",
    list: async (c, dataset) => {
      if (dataset === undefined) throw new Error("internal: a per-dataset list needs a dataset name");
      return (await calls.list(c, dataset)) as WireObject[];
    },
  };
}

/** Field ids are "<dataset>/<field>": a field's own id is only unique within its dataset. */
function withFieldIdentity(dataset: string, field: WireObject): WireObject {
  return { ...field, dataset, id: `${dataset}/${String(field.name)}` };
}

/** A listed field as the service answered it (without the identity the list added). */
function asServed(field: WireObject): WireObject {
  const { id: _id, dataset: _dataset, ...served } = field;
  return served;
}

function splitFieldId(id: string): [string, string] {
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1) {
    throw new Error(`expected a dataset field id "<dataset>/<field>", got "${id}"`);
  }
  return [id.slice(0, slash), id.slice(slash + 1)];
}

export const datasetFieldApi: ResourceApi = {
  listScope: "dataset",
  list: async (c, dataset) => {
    if (dataset === undefined) throw new Error("internal: a per-dataset list needs a dataset name");
    const fields = await readOrUndefined(() => c.listDatasetFields(dataset));
    return (fields ?? []).map((f) => withFieldIdentity(dataset, f as unknown as WireObject));
  },
  read: async (c, id) => {
    const [dataset, name] = splitFieldId(id);
    const field = await readOrUndefined(() => c.getDatasetField(dataset, name));
    return field ? withFieldIdentity(dataset, field as unknown as WireObject) : undefined;
  },
  // Claiming: the field must exist (ingest creates fields); then its metadata is set.
  create: async (c, body, current) => {
    const dataset = String(body.dataset);
    const name = String(body.name);
    const existing = current ? asServed(current) : await readOrUndefined(() => c.getDatasetField(dataset, name));
    if (!existing) {
      throw new Error(`dataset field "${name}" does not exist in dataset "${dataset}": fields are created by ingesting events, then claimed`);
    }
    const { dataset: _d, ...fieldBody } = body;
    const updated = await c.updateDatasetField(dataset, name, { ...existing, ...fieldBody } as AnyBody);
    return withFieldIdentity(dataset, updated as unknown as WireObject);
  },
  update: async (c, id, body, current) => {
    const [dataset, name] = splitFieldId(id);
    const existing = current ? asServed(current) : await c.getDatasetField(dataset, name);
    const { dataset: _d, ...fieldBody } = body;
    const updated = await c.updateDatasetField(dataset, name, { ...existing, ...fieldBody } as AnyBody);
    return withFieldIdentity(dataset, updated as unknown as WireObject);
  },
  idOf: idField,
};

export const userApi: ResourceApi = {
  ...organizationApi({
    list: (c) => c.listUsers(),
    read: (c, id) => c.getUser(id),
    create: (c, body) => c.createUser(body),
    update: (c, id, body) => c.updateUserRole(id, { role: String((body as unknown as WireObject).role) }),
    remove: (c, id) => c.deleteUser(id),
  }),
  // The role is written as a name or an id and read back as {id, name}: show it in the
  // form the user declared, so that a role given by name does not diff against its id.
  normalizeLive: (live, declared) => {
    const role = live.role as { id?: string; name?: string } | undefined;
    if (!role || typeof role !== "object") return live;
    const declaredRole = declared?.role;
    const shown = declaredRole !== undefined && declaredRole === role.name ? role.name : role.id;
    return { ...live, role: shown };
  },
};
