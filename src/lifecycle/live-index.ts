// Live objects as both engines observe them: listed once per kind (and per parent where
// the service lists per parent), shared by every read, adoption and recovery of a run.
import type { OdsClient } from "../api";
import { OdsApiError } from "../api";
import type { ResourceKind, Values, WireObject } from "../resources";
import { liveValues, matchesNaturalKey, naturalKeyText } from "./values";

/** Live objects of one kind, listed with as few calls as the service allows. */
export class LiveIndex {
  private readonly objects = new Map<string, WireObject[]>();
  /**
   * Per listed key, its objects by id, built on the first lookup: a refresh of N
   * resources looks each one up, and a scan per lookup made that N x the list's length.
   */
  private readonly byId = new Map<string, Map<string, WireObject>>();
  /** Number of list calls made, for the API-call budget. */
  listCalls = 0;

  private key(kind: ResourceKind, scope?: string): string {
    return kind.scope ? `${kind.typeName}@${scope ?? ""}` : kind.typeName;
  }

  has(kind: ResourceKind, scope?: string): boolean {
    return this.objects.has(this.key(kind, scope));
  }

  /** Lists in flight: concurrent callers (Terraform refreshes 10 at once) share one call. */
  private readonly inFlight = new Map<string, Promise<WireObject[]>>();

  /** Objects of a kind; for scoped kinds, those under one parent (a scope for other kinds is ignored). */
  load(client: OdsClient, kind: ResourceKind, scope?: string): Promise<WireObject[]> {
    const key = this.key(kind, scope);
    const cached = this.objects.get(key);
    if (cached) return Promise.resolve(cached);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    this.listCalls++;
    const call = (async (): Promise<WireObject[]> => {
      let list: WireObject[];
      try {
        list = await kind.api.list(client, kind.scope ? scope : undefined);
      } catch (err) {
        // The parent does not exist (yet): nothing of this kind lives under it.
        if (err instanceof OdsApiError && err.status === 404 && kind.scope) list = [];
        else throw err;
      } finally {
        this.inFlight.delete(key);
      }
      this.forget(key);
      this.objects.set(key, list);
      return list;
    })();
    this.inFlight.set(key, call);
    return call;
  }

  /** Objects already listed for a kind (under every parent listed so far for scoped kinds). */
  listed(kind: ResourceKind): WireObject[] {
    return this.keysOf(kind).flatMap((key) => this.objects.get(key) ?? []);
  }

  findById(kind: ResourceKind, id: string): WireObject | undefined {
    for (const key of this.keysOf(kind)) {
      const found = this.idsOf(kind, key).get(id);
      if (found) return found;
    }
    return undefined;
  }

  /** The keys of the lists loaded for a kind: one, or one per parent for scoped kinds. */
  private keysOf(kind: ResourceKind): string[] {
    return [...this.objects.keys()].filter((key) => key === kind.typeName || key.startsWith(`${kind.typeName}@`));
  }

  /** Drops a list and its index. */
  private forget(key: string): void {
    this.objects.delete(key);
    this.byId.delete(key);
    this.byNaturalKey.delete(key);
  }

  /** Per listed key, its objects by natural key (as read without declared values), built on the first lookup. */
  private readonly byNaturalKey = new Map<string, Map<string, WireObject[]>>();

  /**
   * The listed objects of a kind with the natural key of VALUES, in list order: what
   * `listed(kind).filter((o) => matchesNaturalKey(kind, o, values))` answers, without a
   * scan of every listed object per declaration (a plan of N new objects asked N times).
   * Kinds' normalizeLive never changes natural-key attributes, so the index read without
   * declared values finds every candidate; each is checked with the declared values.
   */
  withNaturalKey(kind: ResourceKind, values: Values): WireObject[] {
    const key = naturalKeyText(kind, values);
    if (key === undefined) return [];
    return this.keysOf(kind).flatMap((listKey) => (this.naturalKeysOf(kind, listKey).get(key) ?? []).filter((o) => matchesNaturalKey(kind, o, values)));
  }

  /**
   * The same, among the objects of one list (the kind's, or one parent's for scoped
   * kinds), listing it first if needed: what a create asks before it writes, once per
   * object of an apply.
   */
  async loadWithNaturalKey(client: OdsClient, kind: ResourceKind, scope: string | undefined, values: Values): Promise<WireObject[]> {
    await this.load(client, kind, scope);
    const key = naturalKeyText(kind, values);
    if (key === undefined) return [];
    return (this.naturalKeysOf(kind, this.key(kind, scope)).get(key) ?? []).filter((o) => matchesNaturalKey(kind, o, values));
  }

  private naturalKeysOf(kind: ResourceKind, listKey: string): Map<string, WireObject[]> {
    let index = this.byNaturalKey.get(listKey);
    if (!index) {
      index = new Map();
      for (const o of this.objects.get(listKey) ?? []) {
        const k = naturalKeyText(kind, liveValues(kind, o, undefined));
        if (k === undefined) continue;
        const same = index.get(k);
        if (same) same.push(o);
        else index.set(k, [o]);
      }
      this.byNaturalKey.set(listKey, index);
    }
    return index;
  }

  /** The object with this id among those of a kind (under one parent, for scoped kinds), listing them first if needed. */
  async loadById(client: OdsClient, kind: ResourceKind, scope: string | undefined, id: string): Promise<WireObject | undefined> {
    await this.load(client, kind, scope);
    return this.idsOf(kind, this.key(kind, scope)).get(id);
  }

  private idsOf(kind: ResourceKind, key: string): Map<string, WireObject> {
    let ids = this.byId.get(key);
    if (!ids) {
      ids = new Map();
      // The first object of an id wins, as a scan in list order would find it.
      for (const o of this.objects.get(key) ?? []) {
        const id = kind.api.idOf(o);
        if (!ids.has(id)) ids.set(id, o);
      }
      this.byId.set(key, ids);
    }
    return ids;
  }

  /**
   * Puts a write's answer in place of the object with its id in a cached list (or adds
   * it there), for kinds whose answer is the whole object as the service now holds it.
   * Nothing happens when that list was never loaded.
   */
  record(kind: ResourceKind, scope: string | undefined, object: WireObject): void {
    const key = this.key(kind, scope);
    const list = this.objects.get(key);
    if (!list) return;
    const id = kind.api.idOf(object);
    const ids = this.idsOf(kind, key);
    const at = ids.has(id) ? list.findIndex((o) => kind.api.idOf(o) === id) : -1;
    // A new list, never the old one changed: a caller may be reading the old one.
    this.objects.set(key, at < 0 ? [...list, object] : list.map((o, i) => (i === at ? object : o)));
    if (at >= 0) {
      this.byId.delete(key);
      this.byNaturalKey.delete(key);
      return;
    }
    // An object added at the end (a create's answer): the indexes take it as a rebuild
    // would, last in list order, instead of being rebuilt for every create of an apply.
    ids.set(id, object);
    const byKey = this.byNaturalKey.get(key);
    if (!byKey) return;
    const k = naturalKeyText(kind, liveValues(kind, object, undefined));
    if (k === undefined) return;
    const same = byKey.get(k);
    if (same) same.push(object);
    else byKey.set(k, [object]);
  }

  /** Forgets cached lists (of one kind, or of a scoped kind under one parent) so that the next load asks the service again. */
  invalidate(kind?: ResourceKind, scope?: string): void {
    if (!kind) {
      this.objects.clear();
      this.byId.clear();
      this.byNaturalKey.clear();
    } else if (scope !== undefined && kind.scope) this.forget(this.key(kind, scope));
    else for (const key of this.keysOf(kind)) this.forget(key);
  }
}
