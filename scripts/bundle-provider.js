#!/usr/bin/env node
// `npm run build` step: terraform-provider-ods as one self-contained file,
// lib/bundle/terraform-provider-ods.js (the protocol is a precompiled descriptor inside
// it: no .proto file is read at run time), so the provider package that
// `ods terraform install` lays out holds no path of this checkout and no node_modules: its bytes depend on the version only, and a committed
// .terraform.lock.hcl works on every machine. The gRPC and msgpack libraries live only
// in this bundle: they are build-time dependencies of the npm package.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const esbuild = require("esbuild");

const ROOT = path.resolve(__dirname, "..");
const OUT_DIR = path.join(ROOT, "lib/bundle");
const OUT = path.join(OUT_DIR, "terraform-provider-ods.js");

async function bundle() {
  await esbuild.build({
    stdin: {
      // Terraform's plugin protocol owns stdout: nothing but the handshake line may go there.
      contents: [
        '"use strict";',
        'require("./lib/tfprovider/main.js").main().catch((err) => {',
        '  process.stderr.write(`terraform-provider-ods: ${err && err.message ? err.message : String(err)}\\n`);',
        "  process.exit(1);",
        "});",
      ].join("\n"),
      resolveDir: ROOT,
      sourcefile: "terraform-provider-ods-entry.js",
      loader: "js",
    },
    outfile: OUT,
    absWorkingDir: ROOT,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    legalComments: "eof",
    sourcemap: false,
    logLevel: "warning",
  });
  return OUT;
}

module.exports = { bundle, BUNDLE_PATH: OUT, BUNDLE_DIR: OUT_DIR };

if (require.main === module) {
  bundle().then(
    (out) => process.stdout.write(`bundled ${path.relative(ROOT, out)} (${fs.statSync(out).size} bytes)\n`),
    (err) => {
      process.stderr.write(`bundle-provider: ${err.stack || err}\n`);
      process.exitCode = 1;
    },
  );
}
