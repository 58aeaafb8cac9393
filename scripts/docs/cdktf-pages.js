// Per-language CDKTF pages, docs/cdktf/typescript/{resources,data-sources}/*.md, in the
// layout of HashiCorp's prebuilt providers: the same kind as the Terraform page beside
// it, told in the construct's terms (camelCase props, a TypeScript example, the getters
// to read, the import helpers). Generated from the model like docs/resources, so the
// staleness test of test/packaging/docs.test.ts covers them too.
"use strict";

const REF = /\$\{([^}]+)\}/g;

function camel(name) {
  return name.replace(/_([a-z0-9])/g, (_m, c) => c.toUpperCase());
}

/** `ods_virtual_field` -> { namespace: "virtualField", cls: "VirtualField" }; data sources get `dataOds...`. */
function constructName(typeName, role) {
  const ns = camel(typeName.replace(/^ods_/, role === "data" ? "data_ods_" : ""));
  return { namespace: ns, cls: ns[0].toUpperCase() + ns.slice(1) };
}

function tsType(attr) {
  const prim = { string: "string", number: "number", bool: "boolean" };
  switch (attr.type) {
    case "list":
    case "set":
      return `${prim[attr.element]}[]`;
    case "map":
      return `{ [key: string]: ${prim[attr.element]} }`;
    case "object":
      return "object";
    case "object_list":
      return "object[]";
    case "object_map":
      return "{ [key: string]: object }";
    default:
      return prim[attr.type];
  }
}

/** A reference `${ods_dataset.logs.name}` -> `logs.name`, remembering which constructs it needs. */
function refExpression(ref, needs) {
  const parts = ref.split(".");
  const isData = parts[0] === "data";
  const [type, name, ...attrPath] = isData ? parts.slice(1) : parts;
  const variable = camel(name);
  needs.set(variable, constructName(type, isData ? "data" : "resource"));
  return [variable, ...attrPath.map(camel)].join(".");
}

function tsString(value, needs) {
  const whole = /^\$\{([^}]+)\}$/.exec(value);
  if (whole) return refExpression(whole[1], needs);
  if (!value.includes("${")) return JSON.stringify(value);
  const escaped = value.replace(/\\/g, "\\\\").replace(/`/g, "\\`");
  return `\`${escaped.replace(REF, (_m, ref) => `\${${refExpression(ref, needs)}}`)}\``;
}

function tsKey(key) {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

/**
 * A synthesized value as the construct takes it: attribute names in camelCase, map keys
 * (user-chosen: capability datasets, header names) as written, references as getters and
 * write-only secrets from the environment instead of the example's placeholder.
 */
function tsValue(value, attr, indent, needs, secretName) {
  const pad = "  ".repeat(indent);
  // A secret map (secret headers) keeps its keys; each value comes from the environment.
  if (attr && attr.secret && typeof value !== "object") return `process.env.${secretName}!`;
  if (typeof value === "string") return tsString(value, needs);
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) {
    const element = attr && attr.type === "object_list" ? { type: "object", attributes: attr.attributes } : undefined;
    const items = value.map((v) => tsValue(v, element, indent + 1, needs, secretName));
    return items.join(", ").length < 60 && !items.some((i) => i.includes("\n")) ? `[${items.join(", ")}]` : `[\n${items.map((i) => `${pad}  ${i},`).join("\n")}\n${pad}]`;
  }
  const entries = Object.entries(value).map(([k, v]) => {
    if (attr && (attr.type === "map" || attr.type === "object_map")) {
      const element = attr.type === "object_map" ? { type: "object", attributes: attr.attributes } : attr.secret ? { type: attr.element, secret: true } : undefined;
      return `${tsKey(k)}: ${tsValue(v, element, indent + 1, needs, `${secretName}_${k.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`)}`;
    }
    const inner = attr && attr.attributes ? attr.attributes[k] : undefined;
    return `${tsKey(camel(k))}: ${tsValue(v, inner, indent + 1, needs, `${secretName}_${k.toUpperCase()}`)}`;
  });
  if (entries.length === 0) return "{}";
  return `{\n${entries.map((e) => `${pad}  ${e},`).join("\n")}\n${pad}}`;
}

function exampleCode(role, kind, found, placeholderBody) {
  const { namespace, cls } = constructName(kind.typeName, role);
  const name = found ? found.name : "example";
  const body = found ? found.body : placeholderBody;
  const needs = new Map();
  const props = Object.entries(body)
    .filter(([k]) => k !== "//" && k !== "provider")
    .map(([k, v]) => {
      if (k === "depends_on") return `dependsOn: [${v.map((d) => refExpression(d.replace(/^\$\{|\}$/g, ""), needs)).join(", ")}]`;
      return `${tsKey(camel(k))}: ${tsValue(v, kind.attributes[k], 1, needs, `${kind.typeName.toUpperCase()}_${k.toUpperCase()}`)}`;
    });
  const namespaces = new Set([namespace, ...[...needs.values()].map((n) => n.namespace)]);
  const declared = [...needs.entries()].map(([variable, n]) => `declare const ${variable}: ${n.namespace}.${n.cls}; // declared elsewhere in the stack`);
  const lines = [
    'import type { TerraformStack } from "cdktf";',
    `import { ${[...namespaces].sort().join(", ")} } from "cdktf-provider-ods";`,
    "",
    "declare const stack: TerraformStack;",
    ...declared,
    "",
    props.length === 0
      ? `new ${namespace}.${cls}(stack, "${name}", {});`
      : `new ${namespace}.${cls}(stack, "${name}", {\n${props.map((p) => `  ${p},`).join("\n")}\n});`,
  ];
  return lines.join("\n");
}

/** One line per prop; a nested object's props follow it, indented (a map of objects: per value). */
function propLines(attributes, settable, depth = 0) {
  const pad = "  ".repeat(depth);
  return Object.keys(attributes)
    .sort()
    .filter((n) => {
      const a = attributes[n];
      return settable ? a.required || a.optional : true;
    })
    .flatMap((n) => {
      const a = attributes[n];
      const when = settable ? (a.required ? "required" : a.twinRequired ? `required unless \`${camel(`${n}_wo`)}\` is set` : "optional") : "read-only";
      const secrecy = a.writeOnly ? "write-only: never in a plan or state" : a.secret ? "secret, never read back" : a.sensitive ? "sensitive" : undefined;
      const flags = [when, secrecy, a.forcesReplacement ? "replaces the object" : undefined].filter(Boolean);
      const line = `${pad}- \`${camel(n)}\` (\`${tsType(a)}\`, ${flags.join(", ")}) ${a.description}`;
      return a.attributes ? [line, ...propLines(a.attributes, settable, depth + 1)] : [line];
    });
}

function page(role, kind, found, placeholderBody) {
  const short = kind.typeName.replace(/^ods_/, "");
  const what = role === "resource" ? "Resource" : "Data Source";
  const folder = role === "resource" ? "resources" : "data-sources";
  const { namespace, cls } = constructName(kind.typeName, role);
  const settable = propLines(kind.attributes, true);
  const all = Object.keys(kind.attributes).sort().map((n) => `- \`${camel(n)}\`: \`${kind.typeName}.${n}\``);
  const sections = [
    `---\npage_title: "${kind.typeName} ${what} - ods (CDKTF, TypeScript)"\nsubcategory: ""\ndescription: |-\n  ${kind.description}\n---`,
    `# ${what}: ${kind.typeName}`,
    `${kind.description}\n\nConstruct: \`${namespace}.${cls}\` from \`cdktf-provider-ods\` (also \`cdktf-provider-ods/cdktn\`). The Terraform page: [${kind.typeName}](../../../${folder}/${short}.md); the full API: [${namespace}](../../../api/${namespace}.md).`,
    `## Example Usage\n\n\`\`\`typescript\n${exampleCode(role, kind, found, placeholderBody)}\n\`\`\``,
    `## Argument Reference\n\nProps of \`${cls}Config\`, besides \`provider\`, \`dependsOn\` and the other meta-arguments every construct takes. Nested objects take camelCase names too; map keys stay as written.\n\n${settable.length ? settable.join("\n") : "None."}`,
    `## Attribute Reference\n\nEvery attribute can be read from the construct as a token (\`construct.${camel(Object.keys(kind.attributes).includes("id") ? "id" : Object.keys(kind.attributes)[0])}\`), and used in other constructs or outputs:\n\n${all.join("\n")}`,
    role === "resource"
      ? `## Import\n\nImport id: ${kind.importIdFormat}.\n\n\`\`\`typescript\n${namespace}.${cls}.generateConfigForImport(stack, "imported", "ID"); // writes the configuration for you\nnew ${namespace}.${cls}(stack, "${short}", { /* ... */ }).importFrom("ID");\n\`\`\``
      : "## Import\n\nA data source is read on every plan: there is nothing to import.",
  ];
  return `${sections.join("\n\n")}\n`;
}

/** `resources/<kind>.md` and `data-sources/<kind>.md`, relative to docs/cdktf/typescript. */
function cdktfPages(model, blocks, placeholderBodyOf) {
  const pages = {};
  for (const [role, kinds, folder, section] of [
    ["resource", model.RESOURCE_KINDS, "resources", "resource"],
    ["data", model.DATA_SOURCE_KINDS, "data-sources", "data"],
  ]) {
    for (const kind of kinds) {
      const found = (blocks[section][kind.typeName] || [])[0];
      pages[`${folder}/${kind.typeName.replace(/^ods_/, "")}.md`] = page(role, kind, found, found ? undefined : placeholderBodyOf(kind));
    }
  }
  return pages;
}

module.exports = { cdktfPages, constructName };
