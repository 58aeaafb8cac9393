import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { StackError, dependencyOrder, loadStack } from "../../src/reconcile/stack";

const dirs: string[] = [];
function stackFile(json: unknown): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "ods-stack-"));
  dirs.push(d);
  const file = path.join(d, "stacks", "s", "cdk.tf.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(json));
  return file;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const meta = (p: string): { "//": { metadata: { path: string } } } => ({ "//": { metadata: { path: p } } });

describe("loading a synthesized stack", () => {
  it("collects ods resources, data sources and dependencies in order", () => {
    const s = loadStack(
      stackFile({
        resource: {
          ods_virtual_field: { vf: { ...meta("s/vf"), dataset: "${ods_dataset.logs.name}", name: "v", expression: "a" } },
          ods_dataset: { logs: { ...meta("s/logs"), name: "logs" } },
        },
        data: { ods_organization: { org: { ...meta("s/org") } } },
        provider: { ods: [{ url: "http://127.0.0.1:1" }] },
      }),
    );
    expect(s.resources.map((r) => r.address).sort()).toEqual(["ods_dataset.logs", "ods_virtual_field.vf"]);
    expect(dependencyOrder(s.resources).map((r) => r.address)).toEqual(["ods_dataset.logs", "ods_virtual_field.vf"]);
    expect(s.dataSources[0].address).toBe("data.ods_organization.org");
    expect(s.providerConfig.url).toBe("http://127.0.0.1:1");
  });

  it("names the construct path and attribute of every invalid value", () => {
    const file = stackFile({
      resource: {
        ods_notifier: { n: { ...meta("app/oncall"), name: "n", properties: { email: { emails: ["not-an-email"] } } } },
        ods_role: { r: { ...meta("app/role"), name: "r", org_capabilities: { datasets: ["destroy"] } } },
      },
    });
    try {
      loadStack(file);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(StackError);
      const text = (err as Error).message;
      expect(text).toContain('[app/oncall] ods_notifier.n: attribute "properties.email.emails[0]" expected an e-mail address');
      expect(text).toContain('[app/role] ods_role.r: attribute "org_capabilities.datasets[0]" expected one of "create", "read", "update", "delete", got "destroy"');
    }
  });

  it("sends count, for_each, locals and references to other providers to the Terraform path; an undeclared variable is an error", () => {
    const base = { ...meta("a/r"), name: "r" };
    expect(() => loadStack(stackFile({ resource: { ods_role: { r: { ...base, count: 2 } } } }))).toThrow(/count and for_each .* Terraform path/);
    expect(() => loadStack(stackFile({ resource: { ods_role: { r: { ...base, description: "${var.x}" } } } }))).toThrow(/refers to var.x, which the stack does not declare/);
    expect(() => loadStack(stackFile({ locals: { a: "b" }, resource: {} }))).toThrow(/locals blocks are not evaluated .* Terraform path/);
    expect(() =>
      loadStack(stackFile({ resource: { ods_role: { r: { ...base, description: "${aws_s3_bucket.b.arn}" } }, aws_s3_bucket: { b: {} } } })),
    ).toThrow(/another provider/);
  });

  it("skips other providers' resources that nothing refers to, with a warning", () => {
    const s = loadStack(stackFile({ resource: { ods_role: { r: { ...meta("a/r"), name: "r" } }, null_resource: { x: {} } } }));
    expect(s.warnings).toEqual(["skipping null_resource.x: not an ods resource (nothing here refers to it)"]);
  });

  it("rejects a dependency cycle", () => {
    const s = loadStack(
      stackFile({
        resource: {
          ods_role: {
            a: { ...meta("a/a"), name: "a", description: "${ods_role.b.id}" },
            b: { ...meta("a/b"), name: "b", description: "${ods_role.a.id}" },
          },
        },
      }),
    );
    expect(() => dependencyOrder(s.resources)).toThrow(/dependency cycle/);
  });
});

describe("references", () => {
  it("must name an attribute of the referenced kind", () => {
    const file = stackFile({
      resource: {
        ods_dataset: { logs: { ...meta("a/logs"), name: "logs" } },
        ods_virtual_field: { v: { ...meta("a/v"), dataset: "${ods_dataset.logs.colour}", name: "v", expression: "a" } },
      },
    });
    expect(() => loadStack(file)).toThrow('[a/v] ods_virtual_field.v refers to "${ods_dataset.logs.colour}": ods_dataset.logs has no attribute "colour"');
  });
});

describe("the shape of a synthesized stack", () => {
  // Each of these once read as "nothing declared", and apply deleted everything the state managed.
  const malformed: [string, unknown, RegExp][] = [
    ["an array", [], /at \$: expected an object .* got an array/],
    ["a number", 5, /at \$: expected an object .* got a number/],
    ["a string", "resource", /at \$: expected an object .* got a string/],
    ["resource as an array", { resource: [] }, /at \$\.resource: expected an object of resource types, got an array/],
    ["resource as a string", { resource: "x" }, /at \$\.resource: expected an object of resource types, got a string/],
    ["resource as a bool", { resource: true }, /at \$\.resource: expected an object of resource types, got a boolean/],
    ["a misspelled section", { resources: { ods_notifier: {} } }, /at \$\.resources: unknown section "resources" \(did you mean "resource"\?\)/],
    ["a type as an array", { resource: { ods_notifier: [] } }, /at \$\.resource\.ods_notifier: expected an object of named ods_notifier blocks, got an array/],
    ["a top-level type", { ods_notifier: [] }, /at \$\.ods_notifier: unknown section/],
    ["an upper-case type", { resource: { ODS_NOTIFIER: { n: { name: "n" } } } }, /at \$\.resource\.ODS_NOTIFIER: "ODS_NOTIFIER" is not a type name/],
    ["a null block", { resource: { ods_dataset: { logs: null } } }, /at \$\.resource\.ods_dataset\.logs: expected an object of attributes, got null/],
    ["depends_on as a string", { resource: { ods_dataset: { logs: { name: "l", depends_on: "x" } } } }, /depends_on: expected a list of addresses/],
  ];
  for (const [what, json, message] of malformed) {
    it(`rejects ${what}, naming the file and the path`, () => {
      const file = stackFile(json);
      try {
        loadStack(file);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(StackError);
        expect((err as Error).message).toContain(file);
        expect((err as Error).message).toMatch(message);
      }
    });
  }

  it("reads null meta-arguments as unset, and an empty configuration as nothing declared", () => {
    const s = loadStack(stackFile({ resource: { ods_dataset: { logs: { ...meta("a/logs"), name: "logs", lifecycle: null, depends_on: null, provider: null } } } }));
    expect(s.resources[0].preventDestroy).toBe(false);
    expect(s.resources[0].dependsOn).toEqual([]);
    expect(loadStack(stackFile({})).resources).toEqual([]);
    expect(loadStack(stackFile({ "//": {}, terraform: {}, resource: {} })).resources).toEqual([]);
  });

  it("orders a depends_on chain of 5,000 resources without exhausting the call stack", () => {
    const n = 5000;
    const datasets: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) datasets[`d${i}`] = { name: `d${i}`, ...(i > 0 ? { depends_on: [`ods_dataset.d${i - 1}`] } : {}) };
    // Declared in reverse, so that ordering must walk the whole chain from its end.
    const reversed = Object.fromEntries(Object.entries(datasets).reverse());
    const s = loadStack(stackFile({ resource: { ods_dataset: reversed } }));
    const order = dependencyOrder(s.resources).map((r) => r.address);
    expect(order).toHaveLength(n);
    expect(order[0]).toBe("ods_dataset.d0");
    expect(order[n - 1]).toBe(`ods_dataset.d${n - 1}`);
  });

  it("names the cycle it finds", () => {
    const items = [
      { address: "a", dependsOn: ["b"] },
      { address: "b", dependsOn: ["c"] },
      { address: "c", dependsOn: ["a"] },
    ];
    expect(() => dependencyOrder(items)).toThrow("dependency cycle: a -> b -> c -> a");
  });
});

describe("provider configurations and lifecycle", () => {
  it("gives each declaration the provider configuration it names, and reads prevent_destroy", () => {
    const s = loadStack(
      stackFile({
        provider: { ods: [{ alias: "a", url: "http://a.invalid" }, { alias: "b", url: "http://b.invalid" }] },
        resource: {
          ods_dataset: {
            x: { ...meta("s/x"), name: "x", provider: "ods.a", lifecycle: { prevent_destroy: true } },
            y: { ...meta("s/y"), name: "y", provider: "ods.b" },
            z: { ...meta("s/z"), name: "z" },
          },
        },
      }),
    );
    expect(s.resources.map((r) => [r.address, r.provider, r.preventDestroy])).toEqual([
      ["ods_dataset.x", "ods.a", true],
      ["ods_dataset.y", "ods.b", false],
      ["ods_dataset.z", "ods", false],
    ]);
    expect(s.providers.map((p) => [p.key, p.config.url ?? null, p.implicit])).toEqual([
      ["ods.a", "http://a.invalid", false],
      ["ods.b", "http://b.invalid", false],
      ["ods", null, true],
    ]);
  });

  it("refuses a provider reference to a configuration the stack does not have", () => {
    const file = stackFile({ provider: { ods: [{ alias: "a" }] }, resource: { ods_dataset: { x: { ...meta("s/x"), name: "x", provider: "ods.prod" } } } });
    expect(() => loadStack(file)).toThrow('[s/x] ods_dataset.x: provider = "ods.prod" names no provider configuration of this stack; configured: ods.a');
  });
});

describe("variables", () => {
  const stackWithVars = (): string =>
    stackFile({
      variable: {
        team: { type: "string" },
        limit: { type: "number", default: 10 },
        secret: { type: "string", sensitive: true },
      },
      provider: { ods: [{ token: "${var.secret}" }] },
      resource: {
        ods_role: { r: { ...meta("s/r"), name: "${var.team}-readers", description: "key ${var.secret}" } },
      },
      output: { team: { value: "${var.team}" } },
    });

  it("substitutes values with Terraform's precedence: default < TF_VAR_ < --var/--var-file in order", () => {
    const file = stackWithVars();
    const s = loadStack(file, {
      variables: {
        env: { TF_VAR_team: "env-team", TF_VAR_secret: "s3cr3t-value-from-env" },
        assignments: [
          { name: "team", raw: "flag-team", source: "--var" },
          { name: "team", value: "file-team", source: "x.tfvars" },
        ],
      },
    });
    expect(s.resources[0].values.name).toBe("file-team-readers");
    expect(s.providerConfig.token).toBe("s3cr3t-value-from-env");
    expect(s.resources[0].sensitiveAttributes).toEqual(["description"]);
    expect(s.sensitiveValues).toEqual(["s3cr3t-value-from-env"]);
    expect(s.outputs[0].value).toBe("file-team");
    const envOnly = loadStack(file, { variables: { env: { TF_VAR_team: "env-team", TF_VAR_secret: "x" }, assignments: [] } });
    expect(envOnly.resources[0].values.name).toBe("env-team-readers");
  });

  it("names every variable without a value, and never echoes a sensitive value in an error", () => {
    const file = stackWithVars();
    expect(() => loadStack(file, { variables: { env: {}, assignments: [] } })).toThrow(/no value for the variable "team".*\n.*no value for the variable "secret"/s);
    const bad = stackFile({
      variable: { secret: { type: "string", sensitive: true } },
      resource: { ods_notifier: { n: { ...meta("s/n"), name: "n", properties: { email: { emails: ["${var.secret}"] } } } } },
    });
    try {
      loadStack(bad, { variables: { env: { TF_VAR_secret: "not-an-address-4411" }, assignments: [] } });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toContain("expected an e-mail address");
      expect((err as Error).message).not.toContain("not-an-address-4411");
    }
  });

  it("makes an attribute that refers to a sensitive one sensitive too, down a chain", () => {
    const s = loadStack(
      stackFile({
        variable: { secret: { sensitive: true } },
        resource: {
          ods_role: {
            a: { ...meta("s/a"), name: "a", description: "key ${var.secret}" },
            b: { ...meta("s/b"), name: "b", description: "copy of ${ods_role.a.description}" },
            c: { ...meta("s/c"), name: "c-${ods_role.b.name}", description: "${ods_role.b.description}" },
          },
        },
      }),
      { variables: { env: { TF_VAR_secret: "abcdef-123" }, assignments: [] } },
    );
    expect(s.resources.map((r) => [r.address, r.sensitiveAttributes])).toEqual([
      ["ods_role.a", ["description"]],
      ["ods_role.b", ["description"]],
      ["ods_role.c", ["description"]],
    ]);
  });

  it("refuses a non-sensitive output of a sensitive variable, as Terraform does", () => {
    const file = stackFile({ variable: { secret: { sensitive: true } }, output: { leak: { value: "${var.secret}" } } });
    expect(() => loadStack(file, { variables: { env: { TF_VAR_secret: "abcdef" }, assignments: [] } })).toThrow(/output "leak": Output refers to sensitive values \(a sensitive variable\)/);
    const through = stackFile({
      variable: { secret: { sensitive: true } },
      resource: { ods_role: { a: { ...meta("s/a"), name: "a", description: "${var.secret}" } } },
      output: { leak: { value: "${ods_role.a.description}" }, fine: { value: "${ods_role.a.name}" } },
    });
    expect(() => loadStack(through, { variables: { env: { TF_VAR_secret: "abcdef" }, assignments: [] } })).toThrow(
      /^output "leak": Output refers to sensitive values \(ods_role.a.description, which holds a sensitive variable's value\); declare it with sensitive = true/,
    );
  });

  it("types values given as text", () => {
    const file = stackFile({ variable: { n: { type: "number" } }, resource: { ods_dataset: { d: { ...meta("s/d"), name: "d", description: "${var.n}" } } } });
    expect(() => loadStack(file, { variables: { env: { TF_VAR_n: "many" }, assignments: [] } })).toThrow('variable "n" (from TF_VAR_n): expected a number');
  });
});
