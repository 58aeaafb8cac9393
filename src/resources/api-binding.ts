// How each kind calls the service. The engines only see `ResourceApi`: list, read,
// create, update (or rotate), remove. The wire bodies are built from the model
// (wire.ts) and checked by its validation, so the typed client methods receive them
// through one cast per call site below.
import type { OdsClient } from "../api";
import { OdsApiError } from "../api";
import type { Values } from "./kind";

export type WireObject = Record<string, unknown>;

export interface ResourceApi {
  /** Every live object; for kinds with a `scope`, those of one parent (`scope` is its name). */
  list(client: OdsClient, scope?: string): Promise<WireObject[]>;
  /** The live object, or undefined when it is gone. */
  read(client: OdsClient, id: string): Promise<WireObject | undefined>;
  create(client: OdsClient, body: WireObject): Promise<WireObject>;
  update?(client: OdsClient, id: string, body: WireObject): Promise<WireObject>;
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

export const idField = (live: WireObject): string => String(live.id);

/** A kind whose objects all come back from one organization-wide list call. */
export function organizationApi(calls: CrudCalls): ResourceApi {
  return {
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

interface ScopedCrudCalls extends Omit<CrudCalls, "list"> {
  list: (c: OdsClient, scope: string) => Call<unknown[]>;
}

/** A kind listed per parent (virtual fields and starred queries, per dataset). */
export function scopedApi(calls: ScopedCrudCalls): ResourceApi {
  const base = organizationApi({ ...calls, list: () => Promise.resolve([]) });
  return {
    ...base,
    list: async (c, scope) => {
      if (scope === undefined) throw new Error("internal: a scoped list needs the parent's name");
      return (await calls.list(c, scope)) as WireObject[];
    },
  };
}
