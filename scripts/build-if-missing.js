#!/usr/bin/env node
// `npm start` on a fresh clone: the package has no `prepare` script (an install of the
// published package would warn about it), so `npm ci` builds nothing. Build once here
// when lib/ is missing; after that `npm run build` is the way to rebuild.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { spawnSync } = require("node:child_process");

const root = path.resolve(__dirname, "..");
if (!fs.existsSync(path.join(root, "lib", "cli", "main.js"))) {
  process.stderr.write("lib/ is missing: building it first (npm run build) ...\n");
  const r = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  process.exit(r.status ?? 1);
}
