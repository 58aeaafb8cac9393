// The export's code from a snapshot, without a service: names, references, cycles,
// secrets and the two output forms agreeing.
import { describe, expect, it } from "vitest";
import { resourceKind, type Values } from "../../src/resources";
import { buildExport } from "../../src/export/export-model";
import { type LiveObject, type OrgSnapshot, SECRET } from "../../src/export/org-snapshot";
import { tfJsonConfig } from "../../src/export/write-tf-json";
import { renderConstructModule } from "../../src/export/write-typescript";

function obj(typeName: string, id: string, values: Values): LiveObject {
  const kind = resourceKind(typeName)!;
  return { kind, id, key: kind.naturalKey.map((k) => String(values[k])), values, read: values };
}

const names = { className: "Org", moduleName: "org", stackName: "org" };

describe("buildExport", () => {
  it("gives readable unique names, and references in dependency order", () => {
    const snapshot: OrgSnapshot = {
      callerId: "usr_me",
      skipped: [],
      objects: [
        obj("ods_dataset", "ops", { name: "ops" }),
        obj("ods_virtual_field", "vf1", { dataset: "ops", name: "ops" }),
        obj("ods_user", "usr_1", { email: "ops@example.com", name: "Ops", role: "rol_1" }),
        obj("ods_role", "rol_1", { name: "ops", members: ["usr_me"] }),
      ],
    };
    const exp = buildExport(snapshot);
    expect(exp.objects.map((o) => `${o.typeName}.${o.name}`)).toEqual([
      "ods_dataset.ops",
      "ods_virtual_field.ops_ops",
      "ods_role.ops_role",
      "ods_user.ops_user",
    ]);
    const code = renderConstructModule(exp, names);
    expect(code).toContain("dataset: ops.name");
    expect(code).toContain("role: opsRole.id");
    expect(code).toContain("members: [caller.id]");
    expect(code.indexOf("const opsRole")).toBeLessThan(code.indexOf("new user.User"));
  });

  it("keeps a reference that would close a cycle as written, and says so", () => {
    const snapshot: OrgSnapshot = {
      callerId: "usr_me",
      skipped: [],
      objects: [
        obj("ods_user", "usr_a", { email: "a@example.com", name: "A", role: "rol_x" }),
        obj("ods_role", "rol_x", { name: "x", members: ["usr_a"] }),
      ],
    };
    const exp = buildExport(snapshot);
    expect(exp.notes).toEqual([expect.stringContaining("ods_role.x.members[0] keeps the id usr_a of ods_user.a: a reference would make a cycle")]);
    expect(renderConstructModule(exp, names)).toContain(`members: ["usr_a"]`);
  });

  it("makes every held secret a variable, and names an optional secret it cannot see", () => {
    const snapshot: OrgSnapshot = {
      callerId: "usr_me",
      skipped: [],
      objects: [
        obj("ods_notifier", "n1", {
          name: "pager",
          properties: { incident_b: { routing_key: SECRET }, custom_webhook: { url: "https://h.example.com", secret_headers: { "X-Api-Key": SECRET } } },
        }),
      ],
    };
    const exp = buildExport(snapshot);
    expect(exp.variables.map((v) => v.name)).toEqual(["pager_custom_webhook_url", "pager_secret_headers_x_api_key", "pager_routing_key"]);
    expect(exp.notes).toEqual([expect.stringContaining("properties.incident_b.token: an optional secret")]);
    const config = tfJsonConfig(exp) as { resource: { ods_notifier: { pager: { properties: Record<string, Record<string, unknown>> } } }; variable: Record<string, { sensitive: boolean }> };
    expect(config.resource.ods_notifier.pager.properties.incident_b.routing_key).toBe("${var.pager_routing_key}");
    expect(config.resource.ods_notifier.pager.properties.custom_webhook.secret_headers).toEqual({ "X-Api-Key": "${var.pager_secret_headers_x_api_key}" });
    expect(Object.values(config.variable).every((v) => v.sensitive)).toBe(true);
    expect(renderConstructModule(exp, names)).toContain(`"X-Api-Key": secrets.pagerSecretHeadersXApiKey`);
  });

  it("keeps a credential URL out of the code: a sensitive variable whose current value only --credentials-file writes", () => {
    const hook = "https://hooks.chat.example/services/T0/B0/XXXX";
    const snapshot: OrgSnapshot = {
      callerId: "usr_me",
      skipped: [],
      objects: [obj("ods_notifier", "n1", { name: "chat", properties: { webhook: { url: hook } } })],
    };
    const exp = buildExport(snapshot);
    expect(exp.variables).toEqual([expect.objectContaining({ name: "chat_webhook_url", known: hook })]);
    const config = tfJsonConfig(exp) as { resource: { ods_notifier: { chat: { properties: { webhook: { url: string } } } } }; variable: Record<string, { sensitive: boolean }> };
    expect(config.resource.ods_notifier.chat.properties.webhook.url).toBe("${var.chat_webhook_url}");
    expect(config.variable.chat_webhook_url.sensitive).toBe(true);
    const code = renderConstructModule(exp, names);
    expect(code).toContain("url: secrets.chatWebhookUrl");
    for (const text of [code, JSON.stringify(config)]) expect(text).not.toContain("XXXX");
  });

  it("writes capabilities keyed by a dataset as a dependency on it in both forms", () => {
    const snapshot: OrgSnapshot = {
      callerId: "usr_me",
      skipped: [],
      objects: [
        obj("ods_dataset", "logs", { name: "logs" }),
        obj("ods_api_token", "tok_1", { name: "ci", dataset_capabilities: { logs: { ingest: ["create"] } } }),
      ],
    };
    const exp = buildExport(snapshot);
    expect((tfJsonConfig(exp) as { resource: { ods_api_token: { ci: { depends_on: string[] } } } }).resource.ods_api_token.ci.depends_on).toEqual(["ods_dataset.logs"]);
    expect(renderConstructModule(exp, names)).toMatch(/dependsOn: \[logs\],\n    \}\);/);
  });

  it("a dashboard's owner is the calling user or an exported user by reference, never an id of this organization", () => {
    const doc = (owner: string): string => JSON.stringify({ name: "D", owner, charts: [], layout: [], refreshTime: 60, schemaVersion: 2, timeWindowStart: "qr-now-1h", timeWindowEnd: "qr-now" });
    const snapshot: OrgSnapshot = {
      callerId: "usr_me",
      skipped: [],
      objects: [
        obj("ods_user", "usr_ann", { email: "ann@example.com", name: "Ann", role: "user" }),
        obj("ods_dashboard", "mine", { uid: "mine", dashboard: doc("usr_me") }),
        obj("ods_dashboard", "anns", { uid: "anns", dashboard: doc("usr_ann") }),
        obj("ods_dashboard", "all", { uid: "all", dashboard: doc("X-AXIOM-EVERYONE") }),
      ],
    };
    const exp = buildExport(snapshot);
    const code = renderConstructModule(exp, names);
    expect(code).toContain('"owner":"${caller.id}"');
    expect(code).toContain('"owner":"${ann.id}"');
    expect(code).toContain('\\"owner\\":\\"X-AXIOM-EVERYONE\\"');
    expect(code).not.toMatch(/usr_(me|ann)/);
    const config = JSON.stringify(tfJsonConfig(exp));
    expect(config).toContain('\\"owner\\":\\"${data.ods_current_user.caller.id}\\"');
    expect(exp.usesCaller).toBe(true);
  });

  it("knows the everyone owner as the service reads it back (lower case): no note of an unexported user", () => {
    const doc = JSON.stringify({ name: "D", owner: "x-axiom-everyone", charts: [], layout: [], refreshTime: 60, schemaVersion: 2, timeWindowStart: "qr-now-1h", timeWindowEnd: "qr-now" });
    const exp = buildExport({ callerId: "usr_me", skipped: [], objects: [obj("ods_dashboard", "all", { uid: "all", dashboard: doc })] });
    expect(exp.notes.filter((n) => n.includes("ods_user"))).toEqual([]);
    expect(renderConstructModule(exp, names)).toContain('\\"owner\\":\\"x-axiom-everyone\\"');
  });
});
