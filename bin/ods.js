#!/usr/bin/env node
"use strict";
require("../lib/cli/main.js").main(process.argv).then(
  (code) => { process.exitCode = code; },
  (err) => {
    // ODS_DEBUG=1 shows where an unexpected error came from; messages never hold secrets.
    const text = process.env.ODS_DEBUG && err && err.stack ? err.stack : err && err.message ? err.message : String(err);
    process.stderr.write(`ods: ${text}\n`);
    process.exitCode = 1;
  },
);
