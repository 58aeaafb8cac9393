import { describe, expect, it } from "vitest";
import { ExpressionError, UNKNOWN, evaluate, parseReference, referencesIn } from "../../src/reconcile/expressions";

describe("references in a synthesized stack", () => {
  it("parses resource and data-source references with nested paths", () => {
    expect(parseReference("ods_dataset.logs.name")).toEqual({ address: "ods_dataset.logs", path: ["name"], text: "ods_dataset.logs.name" });
    expect(parseReference("data.ods_organization.org.license.api_rate_limit_per_second").path).toEqual(["license", "api_rate_limit_per_second"]);
    expect(parseReference("ods_role.sre.members[1]").path).toEqual(["members", 1]);
  });

  it("refuses what only Terraform can evaluate, and says where to go", () => {
    expect(() => parseReference("var.region")).toThrow(/Terraform path/);
    expect(() => parseReference("lower(ods_dataset.logs.name)")).toThrow(/functions, variables and locals need the Terraform path/);
    expect(() => referencesIn({ a: ["${local.x}"] })).toThrow(ExpressionError);
  });

  it("keeps the type of a whole-value reference and interpolates inside strings", () => {
    const lookup = (r: { address: string; path: (string | number)[] }): unknown =>
      r.address === "ods_role.sre" ? (r.path[0] === "members" ? ["u1", "u2"] : "r-1") : UNKNOWN;
    expect(evaluate("${ods_role.sre.members}", lookup)).toEqual(["u1", "u2"]);
    expect(evaluate("role-${ods_role.sre.id}-x", lookup)).toBe("role-r-1-x");
    expect(evaluate({ list: ["${ods_role.sre.id}", "lit"] }, lookup)).toEqual({ list: ["r-1", "lit"] });
    expect(evaluate("x-${ods_dataset.new.id}", lookup)).toBe(UNKNOWN);
  });
});
