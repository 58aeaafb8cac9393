// Validation names where each problem is, at any depth: every issue keeps its own path
// (validation walks a declaration with one path array it steps into and out of).
import { describe, expect, it } from "vitest";
import type { Attributes } from "../../src/resources";
import { validateDeclaration } from "../../src/resources/validate";

const ATTRS: Attributes = {
  name: { type: "string", required: true, description: "name" },
  tags: { type: "list", element: "string", optional: true, description: "tags", checks: [(v: unknown) => (v === "bad" ? 'not "bad"' : undefined)] },
  labels: { type: "map", element: "number", optional: true, description: "labels" },
  rule: {
    type: "object_list",
    optional: true,
    description: "rules",
    attributes: {
      action: { type: "string", required: true, description: "action" },
      weight: { type: "number", optional: true, description: "weight" },
    },
  },
  id: { type: "string", computed: true, description: "id" },
} as unknown as Attributes;

describe("validation issue paths", () => {
  it("names each problem by its own path, in nested lists, maps and objects", () => {
    const issues = validateDeclaration({ attributes: ATTRS }, {
      tags: ["ok", "bad"],
      labels: { a: 1, b: "two" },
      rule: [{ action: "x" }, { weight: "heavy" }],
      id: "set",
      extra: true,
    });
    expect(issues.map((i) => i.path)).toEqual([["extra"], ["name"], ["tags", 1], ["labels", "b"], ["rule", 1, "action"], ["rule", 1, "weight"], ["id"]]);
    expect(issues.find((i) => i.path[0] === "tags")?.message).toBe('expected not "bad"');
  });
});
