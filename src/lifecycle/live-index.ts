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
   * Per listed key, the position of each id's first object in the list, built on the
   * first lookup: a refresh of N resources looks each one up, and a scan per lookup made
   * that N x the list's length. The first object of an id wins, as a scan in list order
   * would find it.
   */
  private readonly positions = new Map<string, Map<string, number>>();
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
      const found = this.objectWithId(kind, key, id);
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
    this.byNaturalKey.delete(key);
    this.positions.delete(key);
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
   * The objects with the natural key of VALUES in the one list of a kind under SCOPE
   * (listed first if needed), in list order: `load(...).filter(matchesNaturalKey)` without
   * a scan per call (a create checks its namesakes, so N creates scanned N times).
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
    return this.objectWithId(kind, this.key(kind, scope), id);
  }

  private objectWithId(kind: ResourceKind, key: string, id: string): WireObject | undefined {
    const at = this.positionsOf(kind, key).get(id);
    return at === undefined ? undefined : this.objects.get(key)?.[at];
  }

  /**
   * Puts a write's answer in place of the object with its id in a cached list (or adds
   * it there), for kinds whose answer is the whole object as the service now holds it.
   * Nothing happens when that list was never loaded. The list and its indexes are
   * updated in place: an apply of N creates records N answers, and a copy or a rebuild
   * per answer made that quadratic.
   */
  record(kind: ResourceKind, scope: string | undefined, object: WireObject): void {
    const key = this.key(kind, scope);
    const list = this.objects.get(key);
    if (!list) return;
    const id = kind.api.idOf(object);
    const positions = this.positionsOf(kind, key);
    const at = positions.get(id);
    const prior = at === undefined ? undefined : list[at];
    if (at === undefined) {
      positions.set(id, list.length);
      list.push(object);
    } else list[at] = object;
    const naturalKeys = this.byNaturalKey.get(key);
    if (naturalKeys) this.reindexNaturalKey(kind, naturalKeys, list, prior, object, at === undefined);
  }

  /** Keeps a natural-key index in list order after OBJECT replaced PRIOR (or was appended). */
  private reindexNaturalKey(kind: ResourceKind, index: Map<string, WireObject[]>, list: readonly WireObject[], prior: WireObject | undefined, object: WireObject, appended: boolean): void {
    const keyOf = (o: WireObject): string | undefined => naturalKeyText(kind, liveValues(kind, o, undefined));
    const newKey = keyOf(object);
    const oldKey = prior ? keyOf(prior) : undefined;
    const oldBucket = oldKey === undefined ? undefined : index.get(oldKey);
    const at = prior && oldBucket ? oldBucket.indexOf(prior) : -1;
    if (oldBucket && at >= 0 && oldKey === newKey) {
      oldBucket[at] = object; // the usual update: same key, same place
      return;
    }
    if (oldBucket && at >= 0) oldBucket.splice(at, 1);
    if (newKey === undefined) return;
    const bucket = index.get(newKey);
    if (!bucket) index.set(newKey, [object]);
    else if (appended) bucket.push(object);
    else index.set(newKey, list.filter((o) => keyOf(o) === newKey)); // a key that changed: rare
  }

  private positionsOf(kind: ResourceKind, key: string): Map<string, number> {
    let at = this.positions.get(key);
    if (!at) {
      at = new Map();
      for (const [i, o] of (this.objects.get(key) ?? []).entries()) {
        const id = kind.api.idOf(o);
        if (!at.has(id)) at.set(id, i);
      }
      this.positions.set(key, at);
    }
    return at;
  }

  /** Forgets cached lists (of one kind, or of a scoped kind under one parent) so that the next load asks the service again. */
  invalidate(kind?: ResourceKind, scope?: string): void {
    if (!kind) {
      this.objects.clear();
      this.byNaturalKey.clear();
      this.positions.clear();
    } else if (scope !== undefined && kind.scope) this.forget(this.key(kind, scope));
    else for (const key of this.keysOf(kind)) this.forget(key);
  }
}
