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

  it("sends count, for_each, variables and references to other providers to the Terraform path", () => {
    const base = { ...meta("a/r"), name: "r" };
    expect(() => loadStack(stackFile({ resource: { ods_role: { r: { ...base, count: 2 } } } }))).toThrow(/count and for_each .* Terraform path/);
    expect(() => loadStack(stackFile({ resource: { ods_role: { r: { ...base, description: "${var.x}" } } } }))).toThrow(/Terraform path/);
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
