// Writes an export as TypeScript a person would keep: a construct class with one
// construct per object, references by variable, secrets as props that the app fills
// from sensitive variables.
import { snakeToCamel } from "../resources";
import { type ExportedObject, type Expr, type OrgExport, referencedBy, type SecretVariable, variableLine } from "./export-model";
import { windowText } from "../resources/backtest/slo-model";
import { sloGroups, type SloGroup } from "./slo-groups";

/** The generated bindings' namespace and class of a type name: `ods_virtual_field` → virtualField.VirtualField. */
export function constructOf(typeName: string, mode: "resource" | "data"): { namespace: string; className: string } {
  const base = mode === "data" ? typeName.replace(/^ods_/, "data_ods_") : typeName.replace(/^ods_/, "");
  const namespace = snakeToCamel(base);
  return { namespace, className: namespace[0].toUpperCase() + namespace.slice(1) };
}

const RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package " +
    "private protected public await any boolean number string symbol undefined scope id secrets caller constructor")
    .split(" "),
);

function identifierOf(name: string, typeName: string, taken: Set<string>): string {
  let id = snakeToCamel(name);
  if (RESERVED.has(id) || taken.has(id)) id += constructOf(typeName, "resource").className;
  for (let n = 2; taken.has(id); n++) id = `${snakeToCamel(name)}${n}`;
  taken.add(id);
  return id;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function key(k: string, attribute: boolean): string {
  const name = attribute ? snakeToCamel(k) : k;
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

export interface TypeScriptNames {
  className: string;
  /** Module file name without extension, e.g. "exported-org". */
  moduleName: string;
  stackName: string;
}

export function secretsInterfaceName(className: string): string {
  return `${className}Secrets`;
}

export function propOf(variable: SecretVariable): string {
  return snakeToCamel(variable.name);
}

class Renderer {
  readonly identifiers = new Map<ExportedObject, string>();

  render(e: Expr, indent: string): string {
    switch (e.type) {
      case "literal":
        return JSON.stringify(e.value);
      case "reference":
        return `${this.identifiers.get(e.target)}.${snakeToCamel(e.attribute)}`;
      case "caller":
        return "caller.id";
      case "variable":
        return `secrets.${propOf(e.variable)}`;
      case "list": {
        const items = e.items.map((i) => this.render(i, `${indent}  `));
        const flat = `[${items.join(", ")}]`;
        return flat.length + indent.length < 100 && !flat.includes("\n") ? flat : `[\n${items.map((i) => `${indent}  ${i},`).join("\n")}\n${indent}]`;
      }
      case "template":
        return `\`${e.parts.map((p) => (typeof p === "string" ? p.replace(/[\\`]/g, "\\$&").replace(/\$\{/g, "\\${") : `\${${this.render(p, indent)}}`)).join("")}\``;
      case "object": {
        if (e.entries.length === 0) return "{}";
        const lines = e.entries.map((en) => `${indent}  ${key(en.key, en.attribute)}: ${this.render(en.value, `${indent}  `)},`);
        return `{\n${lines.join("\n")}\n${indent}}`;
      }
    }
  }
}

function headerLines(exp: OrgExport): string[] {
  const lines: string[] = [];
  if (exp.variables.length > 0) {
    lines.push("//", "// Variables to set before plan or apply (secrets kept out of the code):");
    for (const v of exp.variables) lines.push(`//   ${variableLine(v)}`);
  }
  if (exp.notes.length > 0) {
    lines.push("//", "// Notes:");
    for (const n of exp.notes) lines.push(`//   - ${n}`);
  }
  return lines;
}

/** The construct class file. */
export function renderConstructModule(exp: OrgExport, names: TypeScriptNames): string {
  const r = new Renderer();
  const taken = new Set<string>([names.className, secretsInterfaceName(names.className)]);
  const referenced = new Set<ExportedObject>(exp.objects.flatMap(referencedBy));
  const namespaces = new Set<string>();
  for (const o of exp.objects) {
    namespaces.add(constructOf(o.typeName, "resource").namespace);
    taken.add(constructOf(o.typeName, "resource").namespace);
  }
  const callerSource = constructOf("ods_current_user", "data");
  if (exp.usesCaller) namespaces.add(callerSource.namespace);
  // What an slo.Slo generated is written back as that construct; its objects are its members.
  const { groups, notes } = sloGroups(exp.objects);
  const groupOf = new Map<ExportedObject, SloGroup>();
  const sloIds = new Map<SloGroup, string>();
  for (const g of groups) {
    namespaces.add("slo");
    taken.add("slo");
    const id = identifierOf(sloConstructId(g), "ods_slo", taken);
    sloIds.set(g, id);
    g.monitors.forEach((m, i) => {
      groupOf.set(m, g);
      r.identifiers.set(m, `${id}.monitors[${i}]`);
    });
    if (g.dashboard) {
      groupOf.set(g.dashboard, g);
      r.identifiers.set(g.dashboard, `${id}.dashboard!`);
    }
  }
  for (const o of exp.objects) if (!groupOf.has(o)) r.identifiers.set(o, identifierOf(o.name, o.typeName, taken));

  const body: string[] = [];
  if (exp.usesCaller) body.push(`    const caller = new ${callerSource.namespace}.${callerSource.className}(this, "caller", {});`, "");
  const written = new Set<SloGroup>();
  for (const o of exp.objects) {
    const group = groupOf.get(o);
    if (group) {
      // At its first member's place: after what its monitors refer to (their notifiers).
      if (!written.has(group)) {
        written.add(group);
        const used = [...group.monitors, ...(group.dashboard ? [group.dashboard] : [])].some((m) => referenced.has(m));
        body.push(`    ${used ? `const ${sloIds.get(group)} = ` : ""}new slo.Slo(this, ${JSON.stringify(sloConstructId(group))}, ${sloProps(group, r)});`, "");
      }
      continue;
    }
    const { namespace, className } = constructOf(o.typeName, "resource");
    const props = { ...o.body, entries: [...o.body.entries] };
    let text = r.render(props, "    ");
    if (o.dependsOn.length > 0) {
      const deps = `dependsOn: [${o.dependsOn.map((d) => r.identifiers.get(d)).join(", ")}],`;
      text = text === "{}" ? `{ ${deps} }` : text.replace(/\n    }$/, `\n      ${deps}\n    }`);
    }
    const assign = referenced.has(o) ? `const ${r.identifiers.get(o)} = ` : "";
    body.push(`    ${assign}new ${namespace}.${className}(this, ${JSON.stringify(o.name)}, ${text});`, "");
  }
  if (body.length > 0) body.pop();

  const secretsType = secretsInterfaceName(names.className);
  exp = { ...exp, notes: [...exp.notes, ...notes] };
  const out: string[] = [
    `// The organization as code, written by \`ods export\`: one construct per object, references`,
    `// where one object names another. Use it in a stack: new ${names.className}(stack, "org"${exp.variables.length > 0 ? ", secrets" : ""}).`,
    ...headerLines(exp),
    `import { Construct } from "constructs";`,
    `import { ${[...namespaces].sort().join(", ")} } from "cdktf-provider-ods";`,
    "",
  ];
  if (exp.variables.length > 0) {
    out.push(`/** Write-only secrets: pass each from a sensitive TerraformVariable, never as a literal. */`, `export interface ${secretsType} {`);
    for (const v of exp.variables) out.push(`  /** ${v.description}. */`, `  readonly ${propOf(v)}: string;`);
    out.push("}", "");
  }
  out.push(
    `export class ${names.className} extends Construct {`,
    `  constructor(scope: Construct, id: string${exp.variables.length > 0 ? `, secrets: ${secretsType}` : ""}) {`,
    "    super(scope, id);",
    ...(body.length > 0 ? ["", ...body] : []),
    "  }",
    "}",
    "",
  );
  return out.join("\n");
}

/** The construct id of an exported SLO: the last part of its construct path, else its name. */
function sloConstructId(g: SloGroup): string {
  return g.slo.path.split("/").pop() || g.slo.name;
}

/** The props of an exported slo.Slo: what its monitors' marker holds, the notifiers they send to. */
function sloProps(g: SloGroup, r: Renderer): string {
  const { slo } = g;
  const q = JSON.stringify;
  const lines = [`      name: ${q(slo.name)},`];
  if (g.description) lines.push(`      description: ${q(g.description)},`);
  lines.push(`      dataset: ${q(slo.dataset)},`, `      badFilter: ${q(slo.badFilter)},`);
  if (slo.totalFilter) lines.push(`      totalFilter: ${q(slo.totalFilter)},`);
  lines.push(`      objectivePercent: ${slo.objectivePercent},`, `      windowDays: ${slo.windowDays},`, "      alerting: {");
  if (g.pageNotifierIds) lines.push(`        pageNotifierIds: ${r.render(g.pageNotifierIds, "        ")},`);
  if (g.ticketNotifierIds) lines.push(`        ticketNotifierIds: ${r.render(g.ticketNotifierIds, "        ")},`);
  lines.push("        windows: [");
  for (const p of slo.pairs) {
    lines.push(`          { severity: slo.SloSeverity.${p.severity === "page" ? "PAGE" : "TICKET"}, longWindow: ${q(windowText(p.longMinutes))}, shortWindow: ${q(windowText(p.shortMinutes))}, factor: ${p.factor} },`);
  }
  lines.push("        ],");
  if (slo.minEvents > 0) lines.push(`        minEvents: ${slo.minEvents},`);
  lines.push("      },");
  if (slo.labels && Object.keys(slo.labels).length > 0) lines.push(`      labels: { ${Object.entries(slo.labels).map(([k, v]) => `${q(k)}: ${q(v)}`).join(", ")} },`);
  if (!g.dashboard) lines.push("      dashboard: false,");
  else if (g.breakdownField) lines.push(`      breakdownField: ${q(g.breakdownField)},`);
  return `{\n${lines.join("\n")}\n    }`;
}

/** main.ts: one stack with the provider block, the secrets as sensitive variables, and the class. */
export function renderMain(exp: OrgExport, names: TypeScriptNames): string {
  const vars = exp.variables;
  const lines = [
    `// A CDKTF app around the exported organization, written by \`ods export\`.`,
    "//",
    "// The target comes from ODS_URL and ODS_TOKEN (the provider block sets neither).",
    ...headerLines({ ...exp, notes: [] }),
    `import { App, TerraformStack${vars.length > 0 ? ", TerraformVariable" : ""} } from "cdktf";`,
    `import type { Construct } from "constructs";`,
    `import { provider } from "cdktf-provider-ods";`,
    `import { ${names.className} } from "./${names.moduleName}";`,
    "",
    `class OrgStack extends TerraformStack {`,
    "  constructor(scope: Construct, id: string) {",
    "    super(scope, id);",
    `    new provider.OdsProvider(this, "ods", {});`,
  ];
  if (vars.length > 0) {
    lines.push(
      "    const secret = (name: string, description: string): string =>",
      "      new TerraformVariable(this, name, { type: \"string\", sensitive: true, description }).stringValue;",
      `    new ${names.className}(this, "org", {`,
      ...vars.map((v) => `      ${propOf(v)}: secret(${JSON.stringify(v.name)}, ${JSON.stringify(v.description)}),`),
      "    });",
    );
  } else {
    lines.push(`    new ${names.className}(this, "org");`);
  }
  lines.push("  }", "}", "", "const app = new App();", `new OrgStack(app, ${JSON.stringify(names.stackName)});`, "app.synth();", "");
  return lines.join("\n");
}
