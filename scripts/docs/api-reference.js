// The constructs' API reference under docs/api/: jsii-docgen, one page per submodule
// (`--split-by-submodule`), then two fixes jsii-docgen does not make itself:
//  - JSDoc `{@link TARGET TEXT}` stays raw text in its Markdown; the generated constructs
//    link every attribute to its reference page that way, so those become Markdown links,
//    re-rooted from src/gen/<kind>/ to docs/api/.
//  - A page over the size budget is cut between its sections (a class or struct each),
//    and in-page anchors that moved to another part point at that part.
"use strict";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/** Every committed Markdown file stays under this (test/docs/docs-checks.test.ts). */
const MAX_MARKDOWN_BYTES = 200 * 1000;
/** Parts are cut smaller than the budget, so that a few more attributes do not tip a page over it. */
const PART_BYTES = 150 * 1000;

const INDEX = "README.md";

/** `{@link ../../../docs/resources/x.md#a TEXT}` (relative to src/gen/<kind>/) -> `[TEXT](../resources/x.md#a)`. */
function linkify(text) {
  return text.replace(/\{@link\s+(\S+?)(?:\s+([^}]*))?\}/g, (_m, target, label) => {
    const shown = (label || target).trim();
    const href = target.startsWith("../../../docs/") ? `../${target.slice("../../../docs/".length)}` : target;
    return `[${shown}](${href})`;
  });
}

/** Splits a page into its preamble and `### ` units, each remembering the `## ` section it sits in. */
function units(text) {
  const lines = text.split("\n");
  const preamble = [];
  const out = [];
  let section;
  let current;
  for (const line of lines) {
    if (line.startsWith("## ")) {
      section = line;
      current = undefined;
      continue;
    }
    if (line.startsWith("### ")) {
      current = { section, lines: [line] };
      out.push(current);
      continue;
    }
    if (current) current.lines.push(line);
    else if (section === undefined) preamble.push(line);
    else out.push((current = { section, lines: [line] }));
  }
  return { preamble: preamble.join("\n"), units: out.map((u) => ({ section: u.section, text: u.lines.join("\n") })) };
}

/** Cuts an oversized page `name.md` into `name.md`, `name-2.md`, ... and re-points anchors across them. */
function splitPage(name, text) {
  if (Buffer.byteLength(text) <= PART_BYTES) return { [name]: text };
  const { preamble, units: all } = units(text);
  const parts = [];
  let part;
  for (const unit of all) {
    const size = Buffer.byteLength(unit.text);
    if (!part || (part.size + size > PART_BYTES && part.units.length > 0)) {
      part = { units: [], size: Buffer.byteLength(preamble) };
      parts.push(part);
    }
    part.units.push(unit);
    part.size += size;
  }
  const base = name.replace(/\.md$/, "");
  const fileOf = (i) => (i === 0 ? name : `${base}-${i + 1}.md`);
  // Later parts repeat the title without its anchor, which belongs to the first part.
  const title = preamble.split("\n")[0].replace(/\s*<a [^>]*><\/a>/g, "");
  const texts = parts.map((p, i) => {
    const body = [];
    let section;
    for (const u of p.units) {
      if (u.section !== section) {
        section = u.section;
        body.push(section, "");
      }
      body.push(u.text);
    }
    const nav = `Part ${i + 1} of ${parts.length}: ${parts.map((_p, j) => (j === i ? `${j + 1}` : `[${j + 1}](./${fileOf(j)})`)).join(" · ")}`;
    const head = i === 0 ? `${preamble.trimEnd()}\n\n${nav}\n` : `${title} (part ${i + 1})\n\n${nav}\n`;
    return `${head}\n${body.join("\n").trimEnd()}\n`;
  });
  const home = new Map();
  texts.forEach((t, i) => {
    for (const m of t.matchAll(/ id="([^"]+)"/g)) if (!home.has(m[1])) home.set(m[1], i);
  });
  const out = {};
  texts.forEach((t, i) => {
    // jsii-docgen links both ways: Markdown `](#id)` and, inside tables, `href="#id"`.
    const repoint = (id, same, other) => {
      const where = home.get(id);
      return where === undefined || where === i ? same : other(`./${fileOf(where)}#${id}`);
    };
    out[fileOf(i)] = t
      .replace(/\]\(#([^)]+)\)/g, (m, id) => repoint(id, m, (to) => `](${to})`))
      .replace(/href="#([^"]+)"/g, (m, id) => repoint(id, m, (to) => `href="${to}"`));
  });
  return out;
}

/** Every page of docs/api: relative path -> text. Reads the assembly in .jsii (`npm run jsii`). */
function apiPages(root) {
  const docgen = path.join(root, "node_modules/jsii-docgen/bin/jsii-docgen");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ods-apidoc-"));
  try {
    execFileSync(process.execPath, [docgen, "--language", "typescript", "--split-by-submodule", "--output", path.join(tmp, INDEX)], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const pages = {};
    for (const file of fs.readdirSync(tmp).sort()) {
      const text = linkify(fs.readFileSync(path.join(tmp, file), "utf8")).replace(/\n{3,}$/, "\n");
      Object.assign(pages, file === INDEX ? { [file]: text } : splitPage(file, text));
    }
    return pages;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function writeApiPages(root, dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const [rel, text] of Object.entries(apiPages(root))) fs.writeFileSync(path.join(dir, rel), text);
}

module.exports = { apiPages, writeApiPages, linkify, splitPage, MAX_MARKDOWN_BYTES };
