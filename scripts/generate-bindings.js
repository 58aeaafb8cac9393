#!/usr/bin/env node
// `npm run generate`: the provider schema from the resource model, then the CDKTF
// construct bindings from that schema with @cdktf/provider-generator. Both are
// committed; test/resources/generated.test.ts fails when they are stale.
"use strict";
process.env.CHECKPOINT_DISABLE = "1";
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");

/** The generated code must not depend on this machine: only the model decides it. */
function schemaJson() {
  const { providersSchemaJson } = require(path.join(ROOT, "lib/resources"));
  return providersSchemaJson();
}

/** The provider version is the package version: the constructs and the provider ship together. */
function packageVersion() {
  return JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;
}

/**
 * What the generator reads: the schema plus `provider_versions`, which makes every
 * construct write `required_providers.ods.version` (cdktf-cli refuses a stack without it).
 */
function generatorInput() {
  const schema = schemaJson();
  const versions = {};
  for (const fqpn of Object.keys(schema.provider_schemas)) versions[fqpn] = packageVersion();
  return { ...schema, provider_versions: versions };
}

// The generator links every attribute to a registry page that does not exist; the
// reference pages are generated into docs/ beside the package (scripts/generate-docs.js).
const REGISTRY_LINK = /https:\/\/registry\.terraform\.io\/providers\/ods\/ods\/[^/\s]+\/docs(?:\/(resources|data-sources)\/([a-z0-9_]+))?/g;

function pointLinksAtDocs(file) {
  const text = fs.readFileSync(file, "utf8");
  // Relative to src/gen/<kind>/ and lib/gen/<kind>/ alike, so editors resolve it in a checkout and in node_modules.
  const fixed = text
    .replace(REGISTRY_LINK, (_m, section, name) => `../../../docs/${section ? `${section}/${name}.md` : "index.md"}`)
    .replace(/Docs at Terraform Registry:/g, "Reference:")
    .replace(/Refer to the Terraform Registry for docs:/g, "Reference:");
  if (fixed !== text) fs.writeFileSync(file, fixed);
}

// Every generated resource and data source gets the model's validation at synth time,
// with the construct path in the error. One call after `super(...)`, added here so that
// nothing in src/gen is edited by hand.
function addValidationHook(file, importPath, isDataSource) {
  let text = fs.readFileSync(file, "utf8");
  const superCall = /(    super\(scope, id, \{\n[\s\S]*?\n    \}\);\n)/;
  if (!superCall.test(text)) return;
  text = text.replace(superCall, `$1    validateWithModel(this, ${isDataSource ? "'data'" : "'resource'"});\n`);
  text = text.replace(/(import \* as cdktf from 'cdktf';\n)/, `$1import { validateWithModel } from '${importPath}';\n`);
  fs.writeFileSync(file, text);
}

async function generateBindings(outDir) {
  const { TerraformProviderGenerator } = require("@cdktf/provider-generator/lib/get/generator/provider-generator");
  const { CodeMaker } = require("codemaker");
  const tmp = fs.mkdtempSync(path.join(require("node:os").tmpdir(), "ods-gen-"));
  try {
    const code = new CodeMaker();
    new TerraformProviderGenerator(code, generatorInput()).generateAll();
    await code.save(tmp);
    const generated = path.join(tmp, "providers", "ods");
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.cpSync(generated, outDir, { recursive: true });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  // lazy-index.ts is for the generator's own packaging; jsii rejects it.
  fs.rmSync(path.join(outDir, "lazy-index.ts"), { force: true });
  for (const entry of fs.readdirSync(outDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const file of ["index.ts", "README.md"]) pointLinksAtDocs(path.join(outDir, entry.name, file));
    if (entry.name === "provider") continue; // the provider block is validated by the engines
    addValidationHook(path.join(outDir, entry.name, "index.ts"), "../../validation", entry.name.startsWith("data-"));
  }
}

function writeSchema(file) {
  fs.writeFileSync(file, `${JSON.stringify(schemaJson(), null, 2)}\n`);
}

module.exports = { generateBindings, writeSchema, packageVersion };

if (require.main === module) {
  const outDir = path.join(ROOT, "src/gen");
  writeSchema(path.join(ROOT, "provider-schema.json"));
  generateBindings(outDir).then(
    () => process.stdout.write(`wrote provider-schema.json and ${path.relative(ROOT, outDir)}/\n`),
    (err) => {
      process.stderr.write(`generate: ${err.stack || err}\n`);
      process.exitCode = 1;
    },
  );
}
