// For a guide test's shell: links this checkout's packages into a generated project, as
// linkProjectDependencies in test/helpers/ods-cli.ts does, plus `npx ods`.
const fs = require("node:fs");
const path = require("node:path");
const ROOT = path.resolve(__dirname, "../..");
module.exports = (dir) => {
  const nm = path.join(dir, "node_modules");
  fs.mkdirSync(path.join(nm, ".bin"), { recursive: true });
  fs.symlinkSync(ROOT, path.join(nm, "cdktf-provider-ods"));
  for (const m of ["cdktf", "constructs", "typescript", "@types"]) fs.symlinkSync(path.join(ROOT, "node_modules", m), path.join(nm, m));
  fs.symlinkSync(path.join("..", "typescript", "bin", "tsc"), path.join(nm, ".bin", "tsc"));
  fs.symlinkSync(path.join(ROOT, "bin", "ods.js"), path.join(nm, ".bin", "ods"));
};
