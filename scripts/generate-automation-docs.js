#!/usr/bin/env node
// docs/automation.md: the reference of the automation API (cdktf-provider-ods/automation),
// read with the TypeScript compiler from the declarations the build emits
// (lib/automation/*.d.ts) and their doc comments, so that what the types say is what the
// page says. test/docs/automation-docs.test.ts fails when the committed page is stale.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const ROOT = path.resolve(__dirname, "..");
const ENTRY = path.join(ROOT, "lib/automation/index.d.ts");
const OUT = path.join(ROOT, "docs/automation.md");

/** Table cells hold one line, and a `|` would end the cell. */
function cell(text) {
  return String(text).replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

function docOf(symbol, checker) {
  return ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
}

/** A declaration's text without its doc comment, on one line. */
function code(node) {
  const text = node.getText().replace(/\/\*\*[\s\S]*?\*\//g, "");
  return text.replace(/\s+/g, " ").replace(/;$/, "").trim();
}

function memberRows(members, checker) {
  const rows = [];
  for (const m of members) {
    if (!m.name || (ts.getCombinedModifierFlags(m) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0) continue;
    const symbol = m.symbol ?? checker.getSymbolAtLocation(m.name);
    const doc = symbol ? docOf(symbol, checker) : "";
    rows.push(`| \`${cell(code(m))}\` | ${cell(doc)} |`);
  }
  return rows;
}

function section(name, symbol, checker) {
  const decl = symbol.declarations[0];
  const doc = docOf(symbol, checker);
  const out = [`### ${name}`, ""];
  if (doc) out.push(doc, "");
  if (ts.isClassDeclaration(decl)) {
    const heritage = decl.heritageClauses ? ` ${decl.heritageClauses.map((h) => h.getText()).join(" ")}` : "";
    out.push(`\`class ${name}${heritage}\``, "");
    const rows = memberRows(decl.members.filter((m) => !ts.isPropertyDeclaration(m) || m.name), checker);
    if (rows.length > 0) out.push("| member | description |", "| --- | --- |", ...rows, "");
  } else if (ts.isInterfaceDeclaration(decl)) {
    const heritage = decl.heritageClauses ? ` ${decl.heritageClauses.map((h) => h.getText()).join(" ")}` : "";
    out.push(`\`interface ${name}${heritage}\``, "");
    const rows = memberRows(decl.members, checker);
    if (rows.length > 0) out.push("| member | description |", "| --- | --- |", ...rows, "");
  } else if (ts.isTypeAliasDeclaration(decl)) {
    out.push("```ts", `type ${name} = ${code(decl.type)};`, "```", "");
  }
  return out;
}

function automationMarkdown() {
  const program = ts.createProgram([ENTRY], { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(ENTRY));
  const exported = checker.getExportsOfModule(moduleSymbol).map((s) => ({ name: s.getName(), symbol: s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s }));
  const order = (s) => {
    const d = s.symbol.declarations[0];
    return ts.isClassDeclaration(d) ? 0 : ts.isInterfaceDeclaration(d) ? 1 : 2;
  };
  const groups = [
    ["Workspace", (e) => /^(Workspace|WorkspaceOptions|PlanOptions|ApplyOptions|WatchOptions|WatchRound|WatchHandle|WatchStatus)$/.test(e.name)],
    ["Emulator", (e) => /Emulator/.test(e.name)],
    ["Errors", (e) => ts.isClassDeclaration(e.symbol.declarations[0]) && e.name !== "Workspace"],
    ["Events", (e) => /Event$/.test(e.name)],
    ["Results", () => true],
  ];
  const seen = new Set();
  const out = [
    "# Automation API reference",
    "",
    "Generated from the types of `cdktf-provider-ods/automation` (`lib/automation/*.d.ts`) by `npm run docs:automation`; do not edit by hand. The guide is [guides/automation.md](guides/automation.md).",
    "",
    "```ts",
    'import { Workspace } from "cdktf-provider-ods/automation";',
    "```",
    "",
  ];
  for (const [title, match] of groups) {
    const members = exported.filter((e) => !seen.has(e.name) && match(e)).sort((a, b) => order(a) - order(b) || (a.name === "Workspace" ? -1 : b.name === "Workspace" ? 1 : 0));
    if (members.length === 0) continue;
    out.push(`## ${title}`, "");
    for (const e of members) {
      seen.add(e.name);
      out.push(...section(e.name, e.symbol, checker));
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}

module.exports = { automationMarkdown };

if (require.main === module) {
  fs.writeFileSync(OUT, automationMarkdown());
  process.stdout.write(`wrote ${path.relative(ROOT, OUT)}\n`);
}
