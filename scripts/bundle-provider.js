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
const crypto = require("node:crypto");
const esbuild = require("esbuild");

const ROOT = path.resolve(__dirname, "..");
const OUT_DIR = path.join(ROOT, "lib/bundle");
const OUT = path.join(OUT_DIR, "terraform-provider-ods.js");

/** One minified CommonJS file for Node 20, licenses kept at its end. */
const COMMON = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  // ODS_BUNDLE_MINIFY=0 keeps names readable in CPU profiles (npm run bench:profile); the
  // bytes then differ from the release's, so only for profiling.
  minify: process.env.ODS_BUNDLE_MINIFY !== "0",
  legalComments: "eof",
  sourcemap: false,
  logLevel: "warning",
};

/**
 * One CommonJS program as the provider ships it: `contents` (an entry module's text,
 * resolved from `resolveDir`) bundled, then held as a string by a small loader that
 * compiles it with V8's code cache (src/tfprovider/code-cache.ts). The loader names the
 * build by a digest of the program, so a cache never serves another build.
 */
async function bundleWithCodeCache({ contents, resolveDir, outfile, sourcefile, define }) {
  const program = await esbuild.build({ stdin: { contents, resolveDir, sourcefile, loader: "js" }, ...COMMON, define, write: false });
  const source = program.outputFiles[0].text;
  // vm.Script runs the program without a dynamic import() callback: a bundle that needs one
  // would fail at run time, so it fails here.
  if (/\bimport\s*\(/.test(source)) throw new Error(`${outfile}: the program calls import(), which the code-cache loader cannot serve`);
  const id = crypto.createHash("sha256").update(source).digest("hex").slice(0, 32);
  await esbuild.build({
    stdin: {
      contents: [
        '"use strict";',
        'require("./lib/tfprovider/code-cache.js").runCached({ source: __ODS_PROGRAM_SOURCE__, id: __ODS_PROGRAM_ID__ }, { require, module, filename: __filename, dirname: __dirname });',
      ].join("\n"),
      resolveDir: ROOT,
      sourcefile: "terraform-provider-ods-loader.js",
      loader: "js",
    },
    define: { __ODS_PROGRAM_SOURCE__: JSON.stringify(source), __ODS_PROGRAM_ID__: JSON.stringify(id) },
    outfile,
    ...COMMON,
  });
  return outfile;
}

/**
 * GetProviderSchema's answer as the provider would encode it at run time, from this
 * build's lib/ (the same model the bundle holds): the bundle sends it without loading
 * the model (src/tfprovider/main.ts).
 */
function schemaAnswer() {
  const { OdsTerraformProvider } = require(path.join(ROOT, "lib/tfprovider/ods-provider.js"));
  const { encodedSchemaResponse } = require(path.join(ROOT, "lib/tfprovider/provider-service.js"));
  return encodedSchemaResponse(new OdsTerraformProvider()).toString("base64");
}

async function bundle() {
  return bundleWithCodeCache({
    define: { __ODS_SCHEMA_ANSWER__: JSON.stringify(schemaAnswer()) },
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
    outfile: OUT,
  });
}

/**
 * Libraries the package runs, each bundled into one minified file in place of tsc's
 * re-export (src/reconcile/backends/pg-driver.ts, src/api/proxy-agents.ts, src/automation/alert-tests/yaml-parser.ts,
 * src/reconcile/watch/prom-driver.ts,
 * src/emulator/query/re2-driver.ts, src/reconcile/html/echarts-driver.ts): the package ships no node_modules
 * tree for them, which keeps it within its size budget.
 */
const DRIVERS = [
  path.join(ROOT, "lib/reconcile/backends/pg-driver.js"),
  path.join(ROOT, "lib/api/proxy-agents.js"),
  path.join(ROOT, "lib/automation/alert-tests/yaml-parser.js"),
  path.join(ROOT, "lib/reconcile/watch/prom-driver.js"),
  path.join(ROOT, "lib/emulator/query/re2-driver.js"),
  path.join(ROOT, "lib/reconcile/html/echarts-driver.js"),
];

/**
 * pg-native (an optional C binding pg loads only when asked for `pg.native`) is left out:
 * asking for it fails as if it were not installed.
 */
async function bundleDriver(file) {
  const stubNative = {
    name: "no-pg-native",
    setup(build) {
      build.onResolve({ filter: /^pg-native$/ }, () => ({ path: "pg-native", namespace: "stub" }));
      build.onLoad({ filter: /.*/, namespace: "stub" }, () => ({
        contents: 'const e = new Error("pg-native is not part of ods"); e.code = "MODULE_NOT_FOUND"; throw e;',
        loader: "js",
      }));
    },
  };
  await esbuild.build({
    entryPoints: [file],
    outfile: file,
    allowOverwrite: true,
    ...COMMON,
    plugins: [stubNative],
  });
  return file;
}

/** The drivers first: the provider bundle then takes them as they ship. */
async function bundleAll() {
  const drivers = await Promise.all(DRIVERS.map(bundleDriver));
  return [...drivers, await bundle()];
}

module.exports = { bundle, bundleWithCodeCache, schemaAnswer, BUNDLE_PATH: OUT, BUNDLE_DIR: OUT_DIR };

if (require.main === module) {
  // `drivers`: only the drivers, after `jsii` has compiled lib/ again over them.
  (process.argv[2] === "drivers" ? Promise.all(DRIVERS.map(bundleDriver)) : bundleAll()).then(
    (outs) => process.stdout.write(outs.map((out) => `bundled ${path.relative(ROOT, out)} (${fs.statSync(out).size} bytes)\n`).join("")),
    (err) => {
      process.stderr.write(`bundle-provider: ${err.stack || err}\n`);
      process.exitCode = 1;
    },
  );
}
