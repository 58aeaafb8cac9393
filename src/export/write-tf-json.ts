// Writes an export as a Terraform JSON configuration (main.tf.json): the same objects,
// references and variables as the TypeScript form, for `terraform apply` or `ods plan`.
import { PROVIDER_SOURCE } from "../resources";
import { type Expr, type OrgExport, variableLine } from "./export-model";

export const CALLER_ADDRESS = "data.ods_current_user.caller";

function value(e: Expr): unknown {
  switch (e.type) {
    case "literal":
      return e.value;
    case "reference":
      return `\${${e.target.typeName}.${e.target.name}.${e.attribute}}`;
    case "caller":
      return `\${${CALLER_ADDRESS}.id}`;
    case "variable":
      return `\${var.${e.variable.name}}`;
    case "list":
      return e.items.map(value);
    case "object":
      return Object.fromEntries(e.entries.map((en) => [en.key, value(en.value)]));
    case "template":
      // Literal text escapes Terraform's template sequences; references interpolate.
      return e.parts.map((p) => (typeof p === "string" ? p.replace(/\$\{/g, () => "$${").replace(/%\{/g, () => "%%{") : String(value(p)))).join("");
  }
}

export function tfJsonConfig(exp: OrgExport): Record<string, unknown> {
  const comment = ["Written by `ods export`. The target comes from ODS_URL and ODS_TOKEN."];
  if (exp.variables.length > 0) comment.push(`Variables to set (secrets kept out of the code): ${exp.variables.map(variableLine).join(", ")}.`);
  for (const n of exp.notes) comment.push(`Note: ${n}`);
  const resource: Record<string, Record<string, unknown>> = {};
  for (const o of exp.objects) {
    const body = value(o.body) as Record<string, unknown>;
    if (o.dependsOn.length > 0) body.depends_on = o.dependsOn.map((d) => `${d.typeName}.${d.name}`);
    (resource[o.typeName] ??= {})[o.name] = body;
  }
  const config: Record<string, unknown> = {
    "//": comment.join(" "),
    terraform: { required_providers: { ods: { source: PROVIDER_SOURCE } } },
    provider: { ods: [{}] },
  };
  if (exp.variables.length > 0) {
    config.variable = Object.fromEntries(exp.variables.map((v) => [v.name, { type: "string", sensitive: true, description: v.description }]));
  }
  if (exp.usesCaller) config.data = { ods_current_user: { caller: {} } };
  if (exp.objects.length > 0) config.resource = resource;
  return config;
}

export function renderTfJson(exp: OrgExport): string {
  return `${JSON.stringify(tfJsonConfig(exp), null, 2)}\n`;
}
