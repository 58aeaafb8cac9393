#!/usr/bin/env node
// `npm run docs`: the reference pages, generated from the resource model so they cannot
// drift from it (test/packaging/docs.test.ts fails when the committed ones are stale):
//   docs/index.md, docs/resources/*.md, docs/data-sources/*.md,
//   docs/ephemeral-resources/*.md                               (Terraform Registry layout)
//   docs/cdktf/typescript/{resources,data-sources}/*.md         (the same, in construct terms)
//   docs/api/*.md                                               (jsii-docgen per submodule, from .jsii)
//   docs/cli.md                                                 (scripts/generate-cli-docs.js)
// Examples come from examples/basic (resources) and examples/inventory (data sources),
// synthesized; kinds they lack get their required attributes with placeholder values.
"use strict";
process.env.CHECKPOINT_DISABLE = "1";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const { cdktfPages, constructName } = require("./docs/cdktf-pages");
const { writeApiPages, apiPages } = require("./docs/api-reference");

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

/** The example apps whose declarations become the pages' examples: every resource, then every data source. */
const EXAMPLE_APPS = [
  { main: "examples/basic/main.js", stack: "basic" },
  { main: "examples/inventory/main.js", stack: "inventory" },
];

/** The example apps, synthesized once: { resource, data }, each type name -> [{ name, body }] (first app first). */
function exampleBlocks() {
  const blocks = { resource: {}, data: {} };
  for (const app of EXAMPLE_APPS) {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "ods-docs-"));
    try {
      const env = { ...process.env, CDKTF_OUTDIR: out };
      delete env.EXAMPLE_WEBHOOK_SECRET; // the example's placeholder, never a real secret
      for (const k of Object.keys(env)) if (k.startsWith("INVENTORY_")) delete env[k]; // the inventory's defaults, not this shell's
      execFileSync(process.execPath, [path.join(ROOT, app.main)], { cwd: ROOT, env, stdio: ["ignore", "ignore", "inherit"] });
      const stack = JSON.parse(fs.readFileSync(path.join(out, `stacks/${app.stack}/cdk.tf.json`), "utf8"));
      for (const section of ["resource", "data"]) {
        for (const [type, byName] of Object.entries(stack[section] || {})) {
          (blocks[section][type] ||= []).push(...Object.entries(byName).map(([name, body]) => ({ name, body })));
        }
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }
  return blocks;
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

/** What an example declares when no example app uses the kind: its required attributes. */
function placeholderBody(kind) {
  return Object.fromEntries(Object.entries(kind.attributes).filter(([, a]) => a.required).map(([n, a]) => [n, placeholder(a)]));
}

function example(role, kind, blocks) {
  const found = (blocks[role === "resource" ? "resource" : "data"][kind.typeName] || [])[0];
  const name = found ? found.name : "example";
  const body = found ? found.body : placeholderBody(kind);
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
  if (attr.writeOnly) out.push("Sensitive, write-only: see [Secrets](../guides/secrets.md).");
  else if (attr.secret && (attr.required || attr.optional)) out.push("Sensitive, never read back by the service; a changed value is detected through a salted fingerprint. Its write-only form keeps it out of the state.");
  else if (attr.sensitive) out.push("Sensitive.");
  if (attr.twinRequired) out.push(`Exactly one of \`${name}\` and \`${name}_wo\` must be set.`);
  if (attr.forcesReplacement) out.push("Changing it replaces the object.");
  else if (kind && kind.rotation && (attr.required || attr.optional) && (!attr.engineOnly || name === kind.rotation.trigger)) out.push("Changing it rotates the token.");
  if (attr.engineOnly) out.push("Read by the provider only, never sent to the service.");
  if (attr.unordered) out.push("Order carries no meaning.");
  return out;
}

function anchor(prefix, name) {
  return `nestedatt--${prefix ? `${prefix}--` : ""}${name}`;
}

// Each attribute's first line on a page carries `<a id="NAME">`: the constructs' JSDoc
// (and docs/api) link to `page.md#NAME`, and a list item has no anchor of its own.
function attributeAnchor(name, anchors) {
  if (anchors.has(name)) return "";
  anchors.add(name);
  return `<a id="${name}"></a>`;
}

function schemaSection(attributes, kind, prefix, nested, anchors) {
  const groups = { Required: [], Optional: [], "Read-Only": [] };
  for (const name of Object.keys(attributes).sort()) {
    const attr = attributes[name];
    const group = attr.required ? "Required" : attr.optional ? "Optional" : "Read-Only";
    const isNested = attr.type === "object" || attr.type === "object_list" || attr.type === "object_map";
    const ref = isNested ? ` (see [below for nested schema](#${anchor(prefix, name)}))` : "";
    const text = [attr.description, ...notes(name, attr, kind)].join(" ");
    groups[group].push(`- ${attributeAnchor(name, anchors)}\`${name}\` (${typeName(attr)}${attr.sensitive || attr.secret ? ", Sensitive" : ""}) ${text}${ref}`);
    if (isNested) nested.push({ path: prefix ? `${prefix}.${name}` : name, id: anchor(prefix, name), attributes: attr.attributes });
  }
  const parts = [];
  for (const [title, lines] of Object.entries(groups)) if (lines.length) parts.push(`### ${title}\n\n${lines.join("\n")}`);
  return parts.join("\n\n");
}

function schemaMarkdown(attributes, kind) {
  const nested = [];
  const anchors = new Set(["import"]);
  const parts = [schemaSection(attributes, kind, "", nested, anchors)];
  for (let i = 0; i < nested.length; i++) {
    const n = nested[i];
    const inner = [];
    parts.push(`<a id="${n.id}"></a>\n### Nested Schema for \`${n.path}\`\n\n${schemaSection(n.attributes, kind, n.path.replace(/\./g, "--"), inner, anchors).replace(/^### /gm, "#### ")}`);
    nested.push(...inner);
  }
  return parts.join("\n\n");
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
    `## Example Usage\n\n\`\`\`terraform\n${example(role, kind, blocks)}\n\`\`\`\n\nIn CDKTF: \`new ${namespace}.${cls}(scope, "${short}", { ... })\` from \`cdktf-provider-ods\` (props in camelCase; see [the CDKTF page](../cdktf/typescript/${role === "resource" ? "resources" : "data-sources"}/${short}.md) and [the API reference](../api/${namespace}.md)).`,
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
  if (kind.planCheck) lines.push(`- At plan time, before anything is applied, both engines check that ${kind.planCheck.checks}; a failure refuses the plan, naming the attribute.`);
  if (kind.warnsOfStrayDatasets) lines.push("- At plan time, both engines warn of a dataset its query names that is neither in the target organization nor created by the configuration, naming the existing datasets with the most similar names.");
  if (Object.values(kind.attributes).some((a) => a.document)) lines.push("- Plans, drift and `ods compare` show a change of its JSON document path by path (keys sorted, array items matched by `id` or `i`); its checks hold with placeholders for the parts known only after apply.");
  if (kind.planInsight) lines.push(`- Plans show ${kind.planInsight.shows}.`);
  return lines.length ? `## Behaviour\n\n${lines.join("\n")}` : undefined;
}

/** An ephemeral resource's page: Terraform only (cdktf has no construct for `ephemeral` blocks). */
function ephemeralPage(kind) {
  const body = { name: "ci", expires_in: "30m", org_capabilities: { notifiers: ["read"] } };
  const example = hclBlock(`ephemeral "${kind.typeName}" "ci"`, Object.fromEntries(Object.entries(body).filter(([n]) => n in kind.attributes)));
  const max = kind.lifetime.max;
  return [
    `---\npage_title: "${kind.typeName} Ephemeral Resource - ods"\nsubcategory: ""\ndescription: |-\n  ${kind.description}\n---`,
    `# ${kind.typeName} (Ephemeral Resource)`,
    kind.description,
    [
      "## Behaviour",
      "",
      `- Terraform (1.10 or later) opens it whenever a run needs it (\`terraform plan\` and \`terraform apply\` each open their own) and closes it at the end of that run: open makes a new \`${kind.opens.typeName}\` object named \`${kind.naming.prefix}<${kind.naming.attribute}>-<8 random hex digits>\`, expiring \`${kind.lifetime.attribute}\` later (at most \`"${max}"\`); close deletes it.`,
      `- Renewal: ${kind.renewal}`,
      `- A run killed before it closes leaves a token that stops working at its expiry by itself. The next open deletes every token whose name starts with \`${kind.naming.prefix}\` and whose expiry has passed (when the provider's token may list and delete tokens); live ones are left to the runs that hold them.`,
      "- Its result is never stored in Terraform's state or plan: use `token` where an ephemeral value is accepted, a write-only attribute (`token_wo`, `routing_key_wo`, ... with their `_wo_version`) or another provider's configuration. See [Secrets](../guides/secrets.md).",
      "- The provider's own token must hold every capability it grants, and when it expires, the ephemeral token may not outlive it (the service refuses, naming `expiresAt`).",
      "- Terraform path only: cdktf has no construct for `ephemeral` blocks, and `ods plan` / `ods apply` refuse a synthesized stack holding one (written through a stack override), naming it.",
    ].join("\n"),
    `## Example Usage\n\n\`\`\`terraform\n${example}\n\nresource "ods_notifier" "pager" {\n  name = "pager"\n  properties = {\n    incident_b = {\n      routing_key      = var.routing_key\n      token_wo         = ephemeral.${kind.typeName}.ci.token\n      token_wo_version = 1\n    }\n  }\n}\n\`\`\``,
    `## Schema\n\n${schemaMarkdown(kind.attributes, undefined)}`,
  ].join("\n\n") + "\n";
}

function providerPage(attributes) {
  return [
    `---\npage_title: "ods Provider"\nsubcategory: ""\ndescription: |-\n  The Observability Data Service.\n---`,
    "# ods Provider",
    "The Observability Data Service: datasets, fields, virtual fields, starred queries, notifiers, monitors, views, dashboards, users, roles and API tokens. Installed locally with `ods terraform install` (see [the Terraform path](guides/terraform-and-cdktf.md)).",
    `## Example Usage\n\n\`\`\`terraform\nterraform {\n  required_providers {\n    ods = {\n      source  = "registry.terraform.io/ods/ods"\n      version = "${require(path.join(ROOT, "package.json")).version}"\n    }\n  }\n}\n\nprovider "ods" {\n  # url and token from ODS_URL / ODS_TOKEN\n}\n\`\`\``,
    `## Schema\n\n${schemaMarkdown(attributes, undefined)}\n\n### Meta-arguments\n\n- <a id="alias"></a>\`alias\` (String) Terraform's meta-argument: names a second configuration of the provider (\`provider = ods.NAME\` on resources).`,
    "## Import\n\nA provider configuration is not imported.",
  ].join("\n\n") + "\n";
}

/** Every page: relative path -> text. */
function referencePages(blocks = exampleBlocks()) {
  const m = model();
  const pages = { "index.md": providerPage(m.PROVIDER_ATTRIBUTES) };
  for (const kind of m.RESOURCE_KINDS) pages[`resources/${kind.typeName.replace(/^ods_/, "")}.md`] = page("resource", kind, blocks);
  for (const kind of m.DATA_SOURCE_KINDS) pages[`data-sources/${kind.typeName.replace(/^ods_/, "")}.md`] = page("data", kind, blocks);
  for (const kind of m.EPHEMERAL_KINDS) pages[`ephemeral-resources/${kind.typeName.replace(/^ods_/, "")}.md`] = ephemeralPage(kind);
  return pages;
}

/** docs/cdktf/typescript/**: relative path (under docs/) -> text. */
function cdktfTypescriptPages(blocks = exampleBlocks()) {
  const pages = {};
  for (const [rel, text] of Object.entries(cdktfPages(model(), blocks, placeholderBody))) pages[`cdktf/typescript/${rel}`] = text;
  return pages;
}

function writeReferenceDocs(docsDir) {
  for (const sub of ["resources", "data-sources", "ephemeral-resources", "cdktf"]) fs.rmSync(path.join(docsDir, sub), { recursive: true, force: true });
  const blocks = exampleBlocks();
  for (const [rel, text] of Object.entries({ ...referencePages(blocks), ...cdktfTypescriptPages(blocks) })) {
    fs.mkdirSync(path.dirname(path.join(docsDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(docsDir, rel), text);
  }
}

module.exports = { referencePages, cdktfTypescriptPages, writeReferenceDocs, apiPages: () => apiPages(ROOT) };

if (require.main === module) {
  writeReferenceDocs(path.join(ROOT, "docs"));
  writeApiPages(ROOT, path.join(ROOT, "docs/api"));
  require("./generate-cli-docs").writeCliDocs();
  process.stdout.write("wrote docs/index.md, docs/resources, docs/data-sources, docs/ephemeral-resources, docs/cdktf/typescript, docs/api and docs/cli.md\n");
}
