// What the engine knows while planning and applying: live objects listed once per kind
// (and per dataset where the service lists per dataset), data-source values, and the
// values each declaration resolves to.
import type { OdsClient } from "../api";
import { OdsApiError } from "../api";
import type { ResourceKind, WireObject } from "../resources";

/** Live objects of one kind, listed with as few calls as the service allows. */
export class LiveIndex {
  private readonly objects = new Map<string, WireObject[]>();
  /** Number of list calls made, for the API-call budget. */
  listCalls = 0;

  private key(kind: ResourceKind, dataset?: string): string {
    return kind.api.listScope === "dataset" ? `${kind.typeName}@${dataset ?? ""}` : kind.typeName;
  }

  has(kind: ResourceKind, dataset?: string): boolean {
    return this.objects.has(this.key(kind, dataset));
  }

  /** Lists in flight: concurrent callers (Terraform refreshes 10 at once) share one call. */
  private readonly inFlight = new Map<string, Promise<WireObject[]>>();

  load(client: OdsClient, kind: ResourceKind, dataset?: string): Promise<WireObject[]> {
    const key = this.key(kind, dataset);
    const cached = this.objects.get(key);
    if (cached) return Promise.resolve(cached);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    this.listCalls++;
    const call = (async (): Promise<WireObject[]> => {
      let list: WireObject[];
      try {
        list = await kind.api.list(client, dataset);
      } catch (err) {
        // The dataset does not exist (yet): nothing of this kind lives in it.
        if (err instanceof OdsApiError && err.status === 404 && kind.api.listScope === "dataset") list = [];
        else throw err;
      } finally {
        this.inFlight.delete(key);
      }
      this.objects.set(key, list);
      return list;
    })();
    this.inFlight.set(key, call);
    return call;
  }

  /** Objects already listed for a kind (every dataset listed so far for per-dataset kinds). */
  listed(kind: ResourceKind): WireObject[] {
    const out: WireObject[] = [];
    for (const [key, list] of this.objects) if (key === kind.typeName || key.startsWith(`${kind.typeName}@`)) out.push(...list);
    return out;
  }

  findById(kind: ResourceKind, id: string): WireObject | undefined {
    return this.listed(kind).find((o) => kind.api.idOf(o) === id);
  }

  /** Forgets cached lists (of one kind, or of one kind in one dataset) so that the next load asks the service again. */
  invalidate(kind?: ResourceKind, dataset?: string): void {
    if (!kind) this.objects.clear();
    else if (dataset !== undefined && kind.api.listScope === "dataset") this.objects.delete(this.key(kind, dataset));
    else for (const key of [...this.objects.keys()]) if (key === kind.typeName || key.startsWith(`${kind.typeName}@`)) this.objects.delete(key);
  }
}

// The lists a plan was made from, for the apply that follows it in the same process:
// an apply then lists nothing the plan listed. Kept beside the plan, never in it, so a
// saved plan's file is unchanged (its apply lists again where it needs to).
const planLists = new WeakMap<object, LiveIndex>();

export function rememberPlanLists(plan: object, live: LiveIndex): void {
  planLists.set(plan, live);
}

export function listsOfPlan(plan: object): LiveIndex | undefined {
  return planLists.get(plan);
}
