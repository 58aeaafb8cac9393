#!/usr/bin/env node
// `npm run build` step: terraform-provider-ods as one self-contained file
// (lib/bundle/terraform-provider-ods.js, its .proto files in lib/bundle/proto), so the
// provider package that `ods terraform install` lays out holds no path of this checkout
// and no node_modules: its bytes depend on the version only, and a committed
// .terraform.lock.hcl works on every machine. The gRPC and msgpack libraries live only
// in this bundle: they are build-time dependencies of the npm package.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const esbuild = require("esbuild");

const ROOT = path.resolve(__dirname, "..");
const OUT_DIR = path.join(ROOT, "lib/bundle");
const OUT = path.join(OUT_DIR, "terraform-provider-ods.js");
const PROTO_SRC = path.join(ROOT, "proto");

// In the provider package the .proto files sit in proto/ beside the bundle, not three
// directories up as in lib/tfprovider/protocol: rewrite that one expression, loudly.
const PROTO_DIR_EXPR = /path\.resolve\(__dirname, "\.\.", "\.\.", "\.\.", "proto"\)/;
const protoBesideBundle = {
  name: "proto-beside-bundle",
  setup(build) {
    build.onLoad({ filter: /lib[\\/]tfprovider[\\/]protocol[\\/]definitions\.js$/ }, (args) => {
      const text = fs.readFileSync(args.path, "utf8");
      if (!PROTO_DIR_EXPR.test(text)) throw new Error(`bundle-provider: ${args.path} no longer computes PROTO_DIR as expected; update scripts/bundle-provider.js`);
      return { contents: text.replace(PROTO_DIR_EXPR, 'path.resolve(__dirname, "proto")'), loader: "js" };
    });
  },
};

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
    plugins: [protoBesideBundle],
  });
  fs.rmSync(path.join(OUT_DIR, "proto"), { recursive: true, force: true });
  fs.mkdirSync(path.join(OUT_DIR, "proto"));
  for (const f of fs.readdirSync(PROTO_SRC).filter((n) => n.endsWith(".proto")).sort()) {
    fs.copyFileSync(path.join(PROTO_SRC, f), path.join(OUT_DIR, "proto", f));
  }
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
