// The committed provider schema and bindings must be what `npm run generate` makes from
// the model today; otherwise a model edit was not carried into the constructs.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { providersSchemaJson } from "../../src/resources";

const ROOT = path.resolve(__dirname, "../..");

function listFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p, base) : [path.relative(base, p)];
  });
}

describe("committed generated code", () => {
  it("provider-schema.json matches the model", () => {
    const committed = JSON.parse(fs.readFileSync(path.join(ROOT, "provider-schema.json"), "utf8")) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(providersSchemaJson())));
  });

  it("src/gen matches what the generator makes from the model", async () => {
    // The script loads the compiled model from lib/, which `npm test` builds first.
    const { generateBindings } = (await import(path.join(ROOT, "scripts/generate-bindings.js"))) as {
      generateBindings: (dir: string) => Promise<void>;
    };
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "ods-gen-"));
    try {
      await generateBindings(out);
      const fresh = listFiles(out).sort();
      const committed = listFiles(path.join(ROOT, "src/gen")).sort();
      expect(committed).toEqual(fresh);
      for (const f of fresh) {
        expect(fs.readFileSync(path.join(ROOT, "src/gen", f), "utf8"), `src/gen/${f} is stale: run npm run generate`).toBe(
          fs.readFileSync(path.join(out, f), "utf8"),
        );
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
