#!/usr/bin/env node
"use strict";
require("../lib/cli/main.js").main(process.argv).then(
  (code) => { process.exitCode = code; },
  (err) => { process.stderr.write(`ods: ${err && err.message ? err.message : String(err)}\n`); process.exitCode = 1; },
);
