#!/usr/bin/env node
// `npm run docs`: the reference pages, generated from the resource model so they cannot
// drift from it (test/packaging/docs.test.ts fails when the committed ones are stale):
//   docs/index.md, docs/resources/*.md, docs/data-sources/*.md  (Terraform Registry layout)
//   API.md                                                      (jsii-docgen, from .jsii)
// Examples come from examples/basic, synthesized; kinds it lacks get their required
// attributes with placeholder values.
"use strict";
process.env.CHECKPOINT_DISABLE = "1";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");

function model() {
  return require(path.join(ROOT, "lib/resources"));
}

// ---- HCL rendering of synthesized JSON ----

const REF = /^\$\{([^}]+)\}$/;

function hclValue(v, indent) {
  const pad = "  ".repeat(indent);
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") {
    const ref = REF.exec(v);
    return ref ? ref[1] : JSON.stringify(v).replace(/\$\{/g, "$${");
  }
  if (typeof v !== "object") return String(v);
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x !== "object" || x === null)) return `[${v.map((x) => hclValue(x, indent)).join(", ")}]`;
    return `[\n${v.map((x) => `${pad}  ${hclValue(x, indent + 1)},`).join("\n")}\n${pad}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return "{}";
  const width = Math.max(...keys.map((k) => hclKey(k).length));
  return `{\n${keys.map((k) => `${pad}  ${hclKey(k).padEnd(width)} = ${hclValue(v[k], indent + 1)}`).join("\n")}\n${pad}}`;
}

function hclKey(k) {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? k : JSON.stringify(k);
}

function hclBlock(header, body) {
  const keys = Object.keys(body).filter((k) => k !== "//" && k !== "provider");
  const width = Math.max(0, ...keys.map((k) => hclKey(k).length));
  const lines = keys.map((k) => {
    let v = body[k];
    if (k === "depends_on") v = v.map((d) => d.replace(REF, "$1"));
    return `  ${hclKey(k).padEnd(width)} = ${k === "depends_on" ? `[${v.join(", ")}]` : hclValue(v, 1)}`;
  });
  return `${header} {\n${lines.join("\n")}\n}`;
}

/** The example app, synthesized once: type name -> [{ name, body }]. */
function exampleBlocks() {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "ods-docs-"));
  try {
    const env = { ...process.env, CDKTF_OUTDIR: out };
    delete env.EXAMPLE_WEBHOOK_SECRET; // the example's placeholder, never a real secret
    execFileSync(process.execPath, [path.join(ROOT, "examples/basic/main.js")], { cwd: ROOT, env, stdio: ["ignore", "ignore", "inherit"] });
    const stack = JSON.parse(fs.readFileSync(path.join(out, "stacks/basic/cdk.tf.json"), "utf8"));
    const pick = (section) => {
      const byType = {};
      for (const [type, byName] of Object.entries(stack[section] || {})) {
        byType[type] = Object.entries(byName).map(([name, body]) => ({ name, body }));
      }
      return byType;
    };
    return { resource: pick("resource"), data: pick("data") };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

function placeholder(attr) {
  switch (attr.type) {
    case "string": return "example";
    case "number": return 1;
    case "bool": return true;
    case "list": case "set": return [placeholder({ type: attr.element })];
    case "map": return { key: placeholder({ type: attr.element }) };
    default: return {};
  }
}

function example(role, kind, blocks) {
  const found = (blocks[role === "resource" ? "resource" : "data"][kind.typeName] || [])[0];
  const name = found ? found.name : "example";
  const body = found ? found.body : Object.fromEntries(Object.entries(kind.attributes).filter(([, a]) => a.required).map(([n, a]) => [n, placeholder(a)]));
  return hclBlock(`${role === "resource" ? "resource" : "data"} "${kind.typeName}" "${name}"`, body);
}

// ---- attribute lists ----

const TYPE_NAMES = { string: "String", number: "Number", bool: "Boolean" };

function typeName(attr) {
  if (attr.type === "list" || attr.type === "set" || attr.type === "map") return `${attr.type[0].toUpperCase()}${attr.type.slice(1)} of ${TYPE_NAMES[attr.element]}`;
  if (attr.type === "object") return "Attributes";
  if (attr.type === "object_list") return "Attributes List";
  if (attr.type === "object_map") return "Attributes Map";
  return TYPE_NAMES[attr.type];
}

function notes(name, attr, kind) {
  const out = [];
  if (attr.default !== undefined) out.push(`Defaults to \`${JSON.stringify(attr.default)}\`.`);
  else if (attr.serverDefault !== undefined) out.push(`The service's default: \`${JSON.stringify(attr.serverDefault)}\`.`);
  if (attr.secret && (attr.required || attr.optional)) out.push("Sensitive, write-only: never read back; a changed value is detected through a salted fingerprint.");
  else if (attr.sensitive) out.push("Sensitive.");
  if (attr.forcesReplacement) out.push("Changing it replaces the object.");
  else if (kind && kind.rotation && (attr.required || attr.optional) && (!attr.engineOnly || name === kind.rotation.trigger)) out.push("Changing it rotates the token.");
  if (attr.engineOnly) out.push("Read by the provider only, never sent to the service.");
  if (attr.unordered) out.push("Order carries no meaning.");
  return out;
}

function anchor(prefix, name) {
  return `nestedatt--${prefix ? `${prefix}--` : ""}${name}`;
}

function schemaSection(attributes, kind, prefix, nested) {
  const groups = { Required: [], Optional: [], "Read-Only": [] };
  for (const name of Object.keys(attributes).sort()) {
    const attr = attributes[name];
    const group = attr.required ? "Required" : attr.optional ? "Optional" : "Read-Only";
    const isNested = attr.type === "object" || attr.type === "object_list" || attr.type === "object_map";
    const ref = isNested ? ` (see [below for nested schema](#${anchor(prefix, name)}))` : "";
    const text = [attr.description, ...notes(name, attr, kind)].join(" ");
    groups[group].push(`- \`${name}\` (${typeName(attr)}${attr.sensitive || attr.secret ? ", Sensitive" : ""}) ${text}${ref}`);
    if (isNested) nested.push({ path: prefix ? `${prefix}.${name}` : name, id: anchor(prefix, name), attributes: attr.attributes });
  }
  const parts = [];
  for (const [title, lines] of Object.entries(groups)) if (lines.length) parts.push(`### ${title}\n\n${lines.join("\n")}`);
  return parts.join("\n\n");
}

function schemaMarkdown(attributes, kind) {
  const nested = [];
  const parts = [schemaSection(attributes, kind, "", nested)];
  for (let i = 0; i < nested.length; i++) {
    const n = nested[i];
    const inner = [];
    parts.push(`<a id="${n.id}"></a>\n### Nested Schema for \`${n.path}\`\n\n${schemaSection(n.attributes, kind, n.path.replace(/\./g, "--"), inner).replace(/^### /gm, "#### ")}`);
    nested.push(...inner);
  }
  return parts.join("\n\n");
}

function constructName(typeName, role) {
  const camel = typeName.replace(/^ods_/, role === "data" ? "data_ods_" : "").replace(/_([a-z])/g, (_m, c) => c.toUpperCase());
  const cls = camel[0].toUpperCase() + camel.slice(1);
  return { namespace: camel, cls };
}

function page(role, kind, blocks) {
  const short = kind.typeName.replace(/^ods_/, "");
  const what = role === "resource" ? "Resource" : "Data Source";
  const { namespace, cls } = constructName(kind.typeName, role);
  const sections = [
    `---\npage_title: "${kind.typeName} ${what} - ods"\nsubcategory: ""\ndescription: |-\n  ${kind.description}\n---`,
    `# ${kind.typeName} (${what})`,
    kind.description,
    role === "resource"
      ? behaviour(kind)
      : undefined,
    `## Example Usage\n\n\`\`\`terraform\n${example(role, kind, blocks)}\n\`\`\`\n\nIn CDKTF: \`new ${namespace}.${cls}(scope, "${short}", { ... })\` from \`cdktf-provider-ods\` (props in camelCase; see [API.md](../../API.md)).`,
    `## Schema\n\n${schemaMarkdown(kind.attributes, role === "resource" ? kind : undefined)}`,
    role === "resource"
      ? `## Import\n\nImport id: ${kind.importIdFormat}.\n\n\`\`\`shell\nterraform import ${kind.typeName}.example ID\n\`\`\`\n\nOr an \`import\` block, or \`${cls}.generateConfigForImport(scope, "id", "ID")\` / \`importFrom("ID")\` in CDKTF.`
      : "## Import\n\nA data source is read on every plan: there is nothing to import.",
  ];
  return `${sections.filter(Boolean).join("\n\n")}\n`;
}

function behaviour(kind) {
  const lines = [];
  if (kind.rotation) lines.push("- Changes that are not replacements rotate the object (a new secret is issued; the old one keeps working for the grace period).");
  if (kind.creation === "claim") lines.push("- Claims an object that already exists (it is not created); removing it from the configuration stops managing it.");
  if (kind.guard) lines.push(`- Never deleted or replaced unless \`${kind.guard.attribute} = true\` (deleting it ${kind.guard.consequence}).`);
  if (kind.deletion === "forget") lines.push("- Removing it from the configuration stops managing it; nothing is deleted.");
  if (kind.naturalKey.length) lines.push(`- Identified without an id by ${kind.naturalKey.map((k) => `\`${k}\``).join(" + ")}: an existing object with that key is adopted, never duplicated.`);
  return lines.length ? `## Behaviour\n\n${lines.join("\n")}` : undefined;
}

function providerPage(attributes) {
  return [
    `---\npage_title: "ods Provider"\nsubcategory: ""\ndescription: |-\n  The Observability Data Service.\n---`,
    "# ods Provider",
    "The Observability Data Service: datasets, fields, virtual fields, starred queries, notifiers, monitors, users, roles and API tokens. Installed locally with `ods terraform install` (see the README).",
    `## Example Usage\n\n\`\`\`terraform\nterraform {\n  required_providers {\n    ods = {\n      source  = "registry.terraform.io/ods/ods"\n      version = "${require(path.join(ROOT, "package.json")).version}"\n    }\n  }\n}\n\nprovider "ods" {\n  # url and token from ODS_URL / ODS_TOKEN\n}\n\`\`\``,
    `## Schema\n\n${schemaMarkdown(attributes, undefined)}\n\n### Meta-arguments\n\n- \`alias\` (String) Terraform's meta-argument: names a second configuration of the provider (\`provider = ods.NAME\` on resources).`,
    "## Import\n\nA provider configuration is not imported.",
  ].join("\n\n") + "\n";
}

/** Every page: relative path -> text. */
function referencePages() {
  const m = model();
  const blocks = exampleBlocks();
  const pages = { "index.md": providerPage(m.PROVIDER_ATTRIBUTES) };
  for (const kind of m.RESOURCE_KINDS) pages[`resources/${kind.typeName.replace(/^ods_/, "")}.md`] = page("resource", kind, blocks);
  for (const kind of m.DATA_SOURCE_KINDS) pages[`data-sources/${kind.typeName.replace(/^ods_/, "")}.md`] = page("data", kind, blocks);
  return pages;
}

function writeReferenceDocs(docsDir) {
  for (const sub of ["resources", "data-sources"]) fs.rmSync(path.join(docsDir, sub), { recursive: true, force: true });
  for (const [rel, text] of Object.entries(referencePages())) {
    fs.mkdirSync(path.dirname(path.join(docsDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(docsDir, rel), text);
  }
}

/** API.md from the jsii assembly (.jsii, written by `npm run jsii`). */
function writeApiDoc(file) {
  const docgen = path.join(ROOT, "node_modules/jsii-docgen/bin/jsii-docgen");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ods-apidoc-"));
  try {
    execFileSync(process.execPath, [docgen, "--language", "typescript", "--output", path.join(tmp, "API.md")], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
    fs.copyFileSync(path.join(tmp, "API.md"), file);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

module.exports = { referencePages, writeReferenceDocs, writeApiDoc };

if (require.main === module) {
  writeReferenceDocs(path.join(ROOT, "docs"));
  writeApiDoc(path.join(ROOT, "API.md"));
  process.stdout.write("wrote docs/index.md, docs/resources, docs/data-sources and API.md\n");
}
