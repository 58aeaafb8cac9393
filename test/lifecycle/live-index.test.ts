// Unit test of LiveIndex alone: lookups by id are served from one list per kind (and
// parent), and never from a list that a write made stale.
import { describe, expect, it } from "vitest";
import type { OdsClient } from "../../src/api";
import { LiveIndex } from "../../src/lifecycle";
import { matchesNaturalKey } from "../../src/lifecycle/values";
import { resourceKind, type ResourceKind, type WireObject } from "../../src/resources";

/** A kind whose lists come from `lists` (by parent), counting the calls. */
function fakeKind(lists: Map<string | undefined, WireObject[]>, scoped: boolean): { kind: ResourceKind; calls: (string | undefined)[] } {
  const calls: (string | undefined)[] = [];
  const kind = {
    typeName: "ods_fake",
    ...(scoped ? { scope: { attribute: "dataset", parentType: "ods_dataset" } } : {}),
    api: {
      idOf: (o: WireObject) => String(o.id),
      list: async (_client: OdsClient, scope?: string) => {
        calls.push(scope);
        return lists.get(scope) ?? [];
      },
    },
  } as unknown as ResourceKind;
  return { kind, calls };
}

const client = {} as OdsClient;

describe("LiveIndex lookups by id", () => {
  it("answers a thousand lookups from one list, the first object of an id winning", async () => {
    const objects = Array.from({ length: 1000 }, (_, i) => ({ id: `o${i}`, n: i }));
    objects.push({ id: "o5", n: -1 });
    const { kind, calls } = fakeKind(new Map([[undefined, objects]]), false);
    const live = new LiveIndex();
    for (let i = 0; i < 1000; i++) expect((await live.loadById(client, kind, undefined, `o${i}`))?.n).toBe(i);
    expect(await live.loadById(client, kind, undefined, "absent")).toBeUndefined();
    expect(calls).toEqual([undefined]);
    expect(live.findById(kind, "o999")?.n).toBe(999);
  });

  it("lists again after invalidate and never answers from the stale list", async () => {
    const lists = new Map<string | undefined, WireObject[]>([[undefined, [{ id: "a", v: 1 }]]]);
    const { kind, calls } = fakeKind(lists, false);
    const live = new LiveIndex();
    expect((await live.loadById(client, kind, undefined, "a"))?.v).toBe(1);
    lists.set(undefined, [{ id: "a", v: 2 }, { id: "b", v: 3 }]);
    live.invalidate(kind);
    expect(live.findById(kind, "a")).toBeUndefined();
    expect((await live.loadById(client, kind, undefined, "a"))?.v).toBe(2);
    expect((await live.loadById(client, kind, undefined, "b"))?.v).toBe(3);
    expect(calls).toEqual([undefined, undefined]);
  });

  it("keeps parents apart for scoped kinds and finds an id under any listed parent", async () => {
    const lists = new Map<string | undefined, WireObject[]>([
      ["ds1", [{ id: "x", under: "ds1" }]],
      ["ds2", [{ id: "y", under: "ds2" }]],
    ]);
    const { kind, calls } = fakeKind(lists, true);
    const live = new LiveIndex();
    expect(await live.loadById(client, kind, "ds1", "y")).toBeUndefined();
    expect((await live.loadById(client, kind, "ds2", "y"))?.under).toBe("ds2");
    expect(live.findById(kind, "x")?.under).toBe("ds1");
    live.invalidate(kind, "ds1");
    expect(live.findById(kind, "x")).toBeUndefined();
    expect(live.findById(kind, "y")?.under).toBe("ds2");
    expect(calls).toEqual(["ds1", "ds2"]);
  });

  it("takes a write's answer in place of the listed object, and lists nothing for a kind never listed", async () => {
    const lists = new Map<string | undefined, WireObject[]>([["ds1", [{ id: "f", v: 1 }]]]);
    const { kind, calls } = fakeKind(lists, true);
    const live = new LiveIndex();
    live.record(kind, "ds1", { id: "f", v: 9 });
    expect(live.findById(kind, "f")).toBeUndefined();
    expect((await live.loadById(client, kind, "ds1", "f"))?.v).toBe(1);
    live.record(kind, "ds1", { id: "f", v: 2 });
    live.record(kind, "ds1", { id: "g", v: 3 });
    expect((await live.loadById(client, kind, "ds1", "f"))?.v).toBe(2);
    expect(live.listed(kind).map((o) => o.id)).toEqual(["f", "g"]);
    expect(calls).toEqual(["ds1"]);
  });

  it("finds objects by natural key among one list, the creates it records included, with one list call", async () => {
    const role = resourceKind("ods_role")!;
    const calls: (string | undefined)[] = [];
    const listed = [{ id: "r1", name: "ops" }, { id: "r2", name: "dev" }, { id: "r3", name: "ops" }];
    const kind = { ...role, api: { ...role.api, list: async (_c: OdsClient, scope?: string) => (calls.push(scope), listed) } } as ResourceKind;
    const live = new LiveIndex();
    const ids = async (name: string) => (await live.loadWithNaturalKey(client, kind, undefined, { name })).map((o) => o.id);
    expect(await ids("ops")).toEqual(["r1", "r3"]);
    expect(await ids("sre")).toEqual([]);
    live.record(kind, undefined, { id: "r4", name: "sre" });
    live.record(kind, undefined, { id: "r5", name: "ops" });
    expect(await ids("sre")).toEqual(["r4"]);
    expect(await ids("ops")).toEqual(["r1", "r3", "r5"]);
    expect(live.withNaturalKey(kind, { name: "ops" }).map((o) => o.id)).toEqual(["r1", "r3", "r5"]);
    expect(live.findById(kind, "r4")?.name).toBe("sre");
    // A write's answer in place of a listed object: its old key no longer finds it.
    live.record(kind, undefined, { id: "r3", name: "dev" });
    expect(await ids("ops")).toEqual(["r1", "r5"]);
    expect(await ids("dev")).toEqual(["r2", "r3"]);
    expect(calls).toEqual([undefined]);
  });
});

describe("LiveIndex lookups by natural key", () => {
  it("answers what a scan of the list would, in list order, after answers recorded in place (new, updated, renamed)", async () => {
    const kind = resourceKind("ods_role")!;
    const role = (id: string, name: string, description = "d"): WireObject => ({ id, name, description });
    const start = [role("r1", "a"), role("r2", "b"), role("r3", "a", "second a"), role("r4", "c")];
    const live = new LiveIndex();
    const listing = { ...kind, api: { ...kind.api, list: async () => start.map((o) => ({ ...o })) } } as ResourceKind;
    const scan = (name: string): unknown[] => live.listed(listing).filter((o) => matchesNaturalKey(listing, o, { name })).map((o) => o.id);
    const indexed = async (name: string): Promise<unknown[]> => (await live.loadWithNaturalKey(client, listing, undefined, { name })).map((o) => o.id);

    expect(await indexed("a")).toEqual(["r1", "r3"]);
    // Seeded operations: creates, updates keeping the key, renames; after each the index agrees with a scan.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const names = ["a", "b", "c", "d"];
    for (let step = 0; step < 200; step++) {
      const ids = live.listed(listing).map((o) => String(o.id));
      const op = next(3);
      const id = op === 0 ? `new${step}` : ids[next(ids.length)];
      const current = live.findById(listing, id);
      const name = op === 2 ? names[next(names.length)] : op === 1 ? String(current?.name) : names[next(names.length)];
      live.record(listing, undefined, role(id, name, `step ${step}`));
      for (const n of names) expect(await indexed(n), `after step ${step}, name ${n}`).toEqual(scan(n));
    }
    expect(live.listCalls).toBe(1);
  });
});
