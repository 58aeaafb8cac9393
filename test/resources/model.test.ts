// Unit tests of the model's generic rules: comparison, wire mapping and validation.
import { describe, expect, it } from "vitest";
import { changedAttributes, fromWire, sameValue, toWire, validateDeclaration } from "../../src/resources";
import { notifier } from "../../src/resources/notifier";
import { role } from "../../src/resources/role";
import { starredQuery } from "../../src/resources/starred-query";

describe("compare", () => {
  it("treats absent, empty and the server default alike, and set-like lists in any order", () => {
    expect(sameValue(role.attributes.description, undefined, "")).toBe(true);
    expect(sameValue(role.attributes.members, ["b", "a"], ["a", "b"])).toBe(true);
    expect(sameValue(role.attributes.members, ["a"], ["a", "b"])).toBe(false);
    expect(changedAttributes(role.attributes, { name: "r" }, { name: "r", description: "", members: [] })).toEqual([]);
    // Unset means none (the server default), as Terraform reads it.
    expect(changedAttributes(role.attributes, { name: "r" }, { name: "r", description: "someone else's" })).toEqual(["description"]);
  });
});

describe("wire mapping", () => {
  it("sends camelCase names with defaults, keeps map keys, and reads back snake_case", () => {
    const body = toWire(starredQuery.attributes, { dataset: "logs", name: "q", query: { apl: "x", start_time: "qr-now-1h" } });
    expect(body).toMatchObject({ dataset: "logs", name: "q", kind: "apl", metadata: {}, query: { apl: "x", startTime: "qr-now-1h" } });
    const back = fromWire(role.attributes, { id: "r1", name: "r", datasetCapabilities: { "my-ds": { starredQueries: ["read"] } } });
    expect(back.dataset_capabilities).toEqual({ "my-ds": expect.objectContaining({ starred_queries: ["read"] }) });
  });
});

describe("validation", () => {
  it("names the attribute path and what was expected", () => {
    const issues = validateDeclaration(notifier, { name: "n", properties: { email: { emails: ["nope"] } } });
    expect(issues.map((i) => i.path.join("."))).toContain("properties.email.emails.0");
    expect(issues.find((i) => i.path.join(".") === "properties.email.emails.0")?.message).toMatch(/e-mail address/);
  });
});
