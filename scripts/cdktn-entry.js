#!/usr/bin/env node
// `npm run build` step: the same constructs for CDK Terrain users. CDKTF was archived
// upstream; its community continuation publishes the library as `cdktn`, the same API
// under a new name. This writes lib/cdktn/ (the generated constructs and their synth-time
// validation, bound to `cdktn` instead of `cdktf`), reached as `cdktf-provider-ods/cdktn`.
// The model, the engines and everything else are shared: only the binding is copied.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const LIB = path.join(ROOT, "lib");
const OUT = path.join(LIB, "cdktn");

/** Files that import cdktf: the generated constructs, their index, the validation hook, the dashboard builder and the SLO construct. */
function sources() {
  const out = ["index.js", "index.d.ts", "validation.js", "validation.d.ts", "dashboard-builder.js", "dashboard-builder.d.ts"];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(LIB, rel), { withFileTypes: true })) {
      const p = path.posix.join(rel, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(js|d\.ts)$/.test(e.name)) out.push(p);
    }
  };
  walk("gen");
  walk("slo");
  return out;
}

function rebind(rel, text) {
  let t = text
    .replace(/require\("cdktf"\)/g, 'require("cdktn")')
    .replace(/from "cdktf"/g, 'from "cdktn"')
    .replace(/from 'cdktf'/g, "from 'cdktn'")
    .replace(/import\("cdktf"\)/g, 'import("cdktn")');
  // validation and the dashboard builder reach the shared model one directory further up from lib/cdktn/.
  if (rel.startsWith("validation.") || rel.startsWith("dashboard-builder.")) t = t.replace(/(require\(|from )"\.\/resources\//g, '$1"../resources/');
  if (rel.startsWith("slo/")) t = t.replace(/(require\(|from )"\.\.\/resources\//g, '$1"../../resources/');
  if (/["']cdktf["']|cdktf\/lib/.test(t.replace(/\/\/.*$/gm, ""))) throw new Error(`cdktn-entry: lib/${rel} still refers to cdktf after rebinding`);
  return t;
}

function writeCdktnEntry() {
  fs.rmSync(OUT, { recursive: true, force: true });
  for (const rel of sources()) {
    const target = path.join(OUT, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, rebind(rel, fs.readFileSync(path.join(LIB, rel), "utf8")));
  }
  return OUT;
}

module.exports = { writeCdktnEntry };

if (require.main === module) {
  try {
    writeCdktnEntry();
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  }
}
