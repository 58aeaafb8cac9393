// The exported project's dependency on this package follows how the running ods was
// installed: a tarball path (relative to the new project), a registry range, or a
// checkout; and package.json says which.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { dependencySpec } from "../../src/export/project";
import { removeTempDirs, tempDir } from "../helpers/ods-cli";

afterAll(() => removeTempDirs());

function installedIn(project: string, spec: string | undefined): string {
  fs.mkdirSync(path.join(project, "node_modules", "cdktf-provider-ods"), { recursive: true });
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "app", dependencies: spec ? { "cdktf-provider-ods": spec } : {} }));
  return path.join(project, "node_modules", "cdktf-provider-ods");
}

describe("dependencySpec", () => {
  const base = { name: "cdktf-provider-ods", version: "0.1.0" };

  it("a tarball install: the same tarball, relative to the exported project", () => {
    const root = tempDir("ods-dep-");
    const packageRoot = installedIn(path.join(root, "app"), "file:../cdktf-provider-ods-0.1.0.tgz");
    const d = dependencySpec({ ...base, packageRoot, outDir: path.join(root, "exports", "prod") });
    expect(d.spec).toBe("file:../../cdktf-provider-ods-0.1.0.tgz");
    expect(d.why).toContain(`the tarball ${path.join(root, "cdktf-provider-ods-0.1.0.tgz")}`);
  });

  it("a registry install: the range the project asks for", () => {
    const root = tempDir("ods-dep-");
    const packageRoot = installedIn(path.join(root, "app"), "^0.1.0");
    expect(dependencySpec({ ...base, packageRoot, outDir: path.join(root, "out") })).toMatchObject({ spec: "^0.1.0", why: expect.stringContaining("the registry") });
  });

  it("a checkout: a directory dependency; --package-spec wins over all", () => {
    const root = tempDir("ods-dep-");
    const d = dependencySpec({ ...base, packageRoot: path.join(root, "src", "ods"), outDir: path.join(root, "out") });
    expect(d.spec).toBe("file:../src/ods");
    expect(dependencySpec({ ...base, packageRoot: root, outDir: root, given: "^9.9.9" })).toEqual({ spec: "^9.9.9", why: "as given with --package-spec" });
  });
});
