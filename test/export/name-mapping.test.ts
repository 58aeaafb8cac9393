// The renaming and the rules of `ods compare --map/--ignore` and `ods export --map`, one
// module at a time: what a mapping renames, what it leaves, and what it refuses.
import { describe, expect, it } from "vitest";
import { compareTargets, renderComparison, type ComparableObject } from "../../src/compare/compare";
import { parseIgnoreRule } from "../../src/compare/ignore";
import { mappedName, parseNameMapping, renameObjects } from "../../src/export/name-mapping";
import { resourceKind } from "../../src/resources";

describe("--map FROM=TO", () => {
  it("reads a prefix when the separator ends each side, a suffix when it starts it", () => {
    expect(parseNameMapping("stg-=prod-")).toMatchObject({ form: "prefix", from: "stg-", to: "prod-" });
    expect(parseNameMapping("-stg=-prod")).toMatchObject({ form: "suffix", from: "-stg", to: "-prod" });
    expect(parseNameMapping("stg_=")).toMatchObject({ form: "prefix", from: "stg_", to: "" });
    expect(() => parseNameMapping("stg=prod")).toThrow(/say whether it is a prefix or a suffix/);
    expect(() => parseNameMapping("stg-")).toThrow(/expects FROM=TO/);
    expect(() => parseNameMapping("=")).toThrow(/both sides are empty/);
  });

  it("renames whole names only, the first mapping that applies", () => {
    const maps = [parseNameMapping("stg-=prod-"), parseNameMapping("-staging=-production")];
    expect(mappedName("stg-logs", maps)?.name).toBe("prod-logs");
    expect(mappedName("logs-staging", maps)).toMatchObject({ name: "logs-production", by: maps[1] });
    expect(mappedName("stg-", maps)).toBeUndefined();
    expect(mappedName("xstg-logs", maps)).toBeUndefined();
  });

  it("renames keys, references, map keys and names inside text, not lookalikes", () => {
    const maps = [parseNameMapping("stg-=prod-")];
    const { objects, mappedBy } = renameObjects(
      [
        { key: ["stg-logs"], values: { name: "stg-logs" } },
        { key: ["readers"], values: { caps: { "stg-logs": { query: ["read"] } }, note: "reads stg-logs, not stg-logs-raw or xstg-logs", ref: "ods_dataset(stg-logs)" } },
      ],
      maps,
    );
    expect(objects[0]).toEqual({ key: ["prod-logs"], values: { name: "prod-logs" } });
    expect(objects[1].values).toEqual({ caps: { "prod-logs": { query: ["read"] } }, note: "reads prod-logs, not stg-logs-raw or xstg-logs", ref: "ods_dataset(prod-logs)" });
    expect(mappedBy).toEqual([maps[0], undefined]);
  });
});

describe("--ignore", () => {
  it("reads a kind, a kind's attribute path, or an attribute of every kind, and refuses what names nothing", () => {
    expect(parseIgnoreRule("ods_notifier")).toEqual({ spec: "ods_notifier", typeName: "ods_notifier" });
    expect(parseIgnoreRule("ods_notifier.properties.webhook")).toEqual({ spec: "ods_notifier.properties.webhook", typeName: "ods_notifier", path: "properties.webhook" });
    expect(parseIgnoreRule("rotation_grace_period")).toEqual({ spec: "rotation_grace_period", path: "rotation_grace_period" });
    expect(() => parseIgnoreRule("ods_widget")).toThrow(/no kind ods_widget/);
    expect(() => parseIgnoreRule("ods_notifier.colour")).toThrow(/ods_notifier has no attribute colour/);
    expect(() => parseIgnoreRule("colour")).toThrow(/no kind has an attribute colour/);
  });
});

describe("compareTargets with mappings and rules", () => {
  const dataset = resourceKind("ods_dataset")!;
  const notifier = resourceKind("ods_notifier")!;
  const obj = (kind: typeof dataset, name: string, values: Record<string, unknown> = {}): ComparableObject => ({ kind, key: [name], values: { name, ...values } });

  it("counts matched, differing and missing on each side, and says which mapping matched each", () => {
    const from = { label: "stg", objects: [obj(dataset, "stg-logs", { description: "a" }), obj(dataset, "stg-old"), obj(notifier, "stg-pager", { properties: { webhook: { url: "https://s" } } }), obj(dataset, "shared")] };
    const to = { label: "prod", objects: [obj(dataset, "prod-logs", { description: "b" }), obj(dataset, "prod-new"), obj(notifier, "prod-pager", { properties: { webhook: { url: "https://p" } } }), obj(dataset, "shared")] };
    const c = compareTargets(from, to, { mappings: [parseNameMapping("stg-=prod-")], ignore: [parseIgnoreRule("ods_notifier.properties")] });
    expect({ compared: c.compared, differing: c.differing, onlyFrom: c.onlyFrom, onlyTo: c.onlyTo }).toEqual({ compared: 3, differing: 1, onlyFrom: 1, onlyTo: 1 });
    const text = renderComparison(from, to, c);
    expect(text).toContain(`  ~ ods_dataset "prod-logs" (--from "stg-logs", by stg-=prod-):\n      description: "a" -> "b"`);
    expect(text).toContain(`  - ods_dataset "stg-old" (mapped by stg-=prod- to "prod-old"): only in --from`);
    expect(text).toContain(`  + ods_dataset "prod-new": only in --to`);
    expect(text).toContain(`  = ods_dataset "shared" (the same name)`);
    expect(text).toContain(`  = ods_notifier "prod-pager" (--from "stg-pager", by stg-=prod-)`);
    expect(text).toContain(`3 matched (2 by stg-=prod-, 1 by the same name), 1 differing, 1 only in --from, 1 only in --to.`);
    // A whole kind left out is on neither side.
    const noNotifiers = compareTargets(from, to, { mappings: [parseNameMapping("stg-=prod-")], ignore: [parseIgnoreRule("ods_notifier")] });
    expect(noNotifiers.compared).toBe(2);
  });
});
