// How each kind calls the service. The engines only see `ResourceApi`: list, read,
// create, update (or rotate), remove. The wire bodies are built from the model
// (wire.ts); each kind names the wire type of its bodies (src/api/types.ts) through
// `wireShape`, which the typed client methods then receive.
import type { OdsClient } from "../api";
import { OdsApiError } from "../api";
import type { Values } from "./kind";

export type WireObject = Record<string, unknown>;

export interface ResourceApi {
  /** Every live object; for kinds with a `scope`, those of one parent (`scope` is its name). */
  list(client: OdsClient, scope?: string): Promise<WireObject[]>;
  /** The live object, or undefined when it is gone. */
  read(client: OdsClient, id: string): Promise<WireObject | undefined>;
  /**
   * `current`, when the caller has it, is the object as last listed: a kind whose write
   * replaces the whole object (a dataset field) writes over it instead of reading it first.
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
  // It must not change the natural key's attributes: lookups by natural key index the
  // live objects read without declared values (LiveIndex.withNaturalKey).
  normalizeLive?(live: WireObject, declared: Values | undefined): WireObject;
  /**
   * The wire body for create/update, when it differs from the generic mapping. `context`
   * has the declared values (engine-only settings included) and, for an update, the
   * engine's record of the object as last applied (its write version).
   */
  shapeBody?(body: WireObject, operation: "create" | "update", context: BodyContext): WireObject;
  /** The keys the wire types of create and update bodies declare (src/api/types.ts). */
  wireKeys: { create: readonly string[]; update: readonly string[] };
}

export interface BodyContext {
  values: Values;
  /** The object as this engine last applied it (state values); unset for a creation or an adoption. */
  last?: Values;
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

type Call<R> = Promise<R>;

/**
 * Every top-level key of the wire type B, listed once: the compiler rejects a missing or
 * an extra key, so the list is the wire type's own (src/api/types.ts).
 */
export type WireKeys<B> = { readonly [K in keyof Required<B>]: true };

/** Turns a model-built body into the wire type B, refusing any key B does not declare. */
export interface WireShape<B> {
  (body: WireObject): B;
  /** The keys B declares. */
  readonly keys: readonly string[];
}

/**
 * The wire shape of a request body. The model builds bodies from attribute declarations
 * (wire.ts); a body carrying a key the wire type lacks is a model error, reported before
 * anything is sent (test/resources/wire-shape.test.ts builds every kind's full body).
 */
export function wireShape<B>(what: string, keys: WireKeys<B>): WireShape<B> {
  const allowed = Object.keys(keys);
  const check = (body: WireObject): B => {
    const extra = Object.keys(body).filter((k) => !allowed.includes(k));
    if (extra.length > 0) throw new Error(`internal: the ${what} body has ${extra.join(", ")}, which its wire type does not declare`);
    // Checked above, key by key; values were validated against the model's attribute types.
    return body as unknown as B;
  };
  return Object.assign(check, { keys: allowed });
}

export interface CrudCalls<Create, Update = Create> {
  list: (c: OdsClient) => Call<unknown[]>;
  read: (c: OdsClient, id: string) => Call<unknown>;
  create: (c: OdsClient, body: Create) => Call<unknown>;
  update?: (c: OdsClient, id: string, body: Update) => Call<unknown>;
  rotate?: (c: OdsClient, id: string, body: Create, existingTokenExpiresAt: string) => Call<unknown>;
  remove: (c: OdsClient, id: string) => Call<unknown>;
}

/** The wire shapes of a kind's create (and rotate) and update bodies. */
export interface BodyShapes<Create, Update> {
  create: WireShape<Create>;
  update?: WireShape<Update>;
}

export const idField = (live: WireObject): string => String(live.id);

/** A kind whose objects all come back from one organization-wide list call. */
export function organizationApi<Create, Update = Create>(calls: CrudCalls<Create, Update>, shapes: BodyShapes<Create, Update>): ResourceApi {
  const { update, rotate } = calls;
  const updateShape = shapes.update ?? (shapes.create as unknown as WireShape<Update>);
  return {
    list: async (c) => (await calls.list(c)) as WireObject[],
    read: (c, id) => readOrUndefined(() => calls.read(c, id) as Promise<WireObject>),
    create: async (c, body) => (await calls.create(c, shapes.create(body))) as WireObject,
    update: update ? async (c, id, body) => (await update(c, id, updateShape(body))) as WireObject : undefined,
    rotate: rotate ? async (c, id, body, until) => (await rotate(c, id, shapes.create(body), until)) as WireObject : undefined,
    remove: async (c, id) => {
      await calls.remove(c, id);
    },
    idOf: idField,
    wireKeys: { create: shapes.create.keys, update: updateShape.keys },
  };
}

interface ScopedCrudCalls<Create, Update> extends Omit<CrudCalls<Create, Update>, "list"> {
  list: (c: OdsClient, scope: string) => Call<unknown[]>;
}

/** A kind listed per parent (virtual fields and starred queries, per dataset). */
export function scopedApi<Create, Update = Create>(calls: ScopedCrudCalls<Create, Update>, shapes: BodyShapes<Create, Update>): ResourceApi {
  const base = organizationApi<Create, Update>({ ...calls, list: () => Promise.resolve([]) }, shapes);
  return {
    ...base,
    list: async (c, scope) => {
      if (scope === undefined) throw new Error("internal: a scoped list needs the parent's name");
      return (await calls.list(c, scope)) as WireObject[];
    },
  };
}
