#!/usr/bin/env node
"use strict";
// Terraform's plugin protocol owns stdout: nothing but the handshake line may go there.
require("../lib/tfprovider/main.js").main().catch((err) => {
  process.stderr.write(`terraform-provider-ods: ${err && err.message ? err.message : String(err)}\n`);
  process.exit(1);
});
