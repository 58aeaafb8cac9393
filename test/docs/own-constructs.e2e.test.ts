// The guide section "From the exported class to your own constructs"
// (docs/guides/export-compare-replication.md), run as a reader runs it: its shell blocks
// in one shell, its files (a ```ts block after `<!-- guide-file: PATH -->`) written where
// it says, against an emulator holding the objects it names. Every object keeps its id,
// the token is not rotated, and the last plan has nothing to do.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { ROOT, linkProjectDependencies, removeTempDirs, tempDir } from "../helpers/ods-cli";
import { shellBlocks } from "./guide-blocks";

const GUIDE = "docs/guides/export-compare-replication.md";
const HEADING = "## From the exported class to your own constructs";

let emu: EmulatorHandle;
let admin: OdsClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
});
afterAll(async () => {
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

/** The section's shell blocks and files, in order, as one bash script. */
function sectionScript(markdown: string): string {
  const start = markdown.indexOf(HEADING);
  const end = markdown.indexOf("\n## ", start + HEADING.length);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  const steps: { line: number; text: string }[] = [];
  for (const b of shellBlocks(section, GUIDE)) if (b.run) steps.push({ line: b.line, text: b.code });
  const lines = section.split("\n");
  for (const [i, l] of lines.entries()) {
    const m = /^<!--\s*guide-file:\s*(\S+)\s*-->$/.exec(l.trim());
    if (!m) continue;
    const close = lines.findIndex((x, j) => j > i + 1 && x.startsWith("```"));
    const body = lines.slice(i + 2, close).join("\n");
    // Written relative to where the script started, whatever directory a block moved to.
    steps.push({ line: i + 2, text: `cat > "$GUIDE_ROOT/${m[1]}" <<'GUIDE_FILE_END'\n${body}\nGUIDE_FILE_END` });
  }
  steps.sort((a, b) => a.line - b.line);
  return ["set -euo pipefail", 'GUIDE_ROOT="$PWD"', ...steps.map((s) => `echo "+++ ${GUIDE}:${s.line}"\n${s.text}`)].join("\n\n");
}

describe("the guide: from the exported class to your own constructs", () => {
  it("runs as written: every object keeps its id, the token its secret, and the last plan is empty", async () => {
    const roleMade = await admin.createRole({ name: "readers", orgCapabilities: { datasets: ["read"] } } as never);
    const tokenMade = await admin.createToken({ name: "ci", description: "deploys" } as never);
    const work = tempDir("ods-guide-own-");
    // The project's packages as `npm install` would give them (linked from this checkout),
    // in place before the export writes the project there; `npx ods` is this checkout's.
    const project = path.join(work, "org-as-code");
    fs.mkdirSync(project);
    linkProjectDependencies(project);
    for (const dir of [work, project]) {
      fs.mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
      fs.symlinkSync(path.join(ROOT, "bin", "ods.js"), path.join(dir, "node_modules", ".bin", "ods"));
    }
    const script = sectionScript(fs.readFileSync(path.join(ROOT, GUIDE), "utf8"));
    let out = "";
    let code = 0;
    try {
      const r = await promisify(execFile)("bash", ["-c", script], {
        cwd: work,
        env: { ...process.env, ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, CHECKPOINT_DISABLE: "1" },
        timeout: 300_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      out = r.stdout + r.stderr;
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      code = e.code ?? 1;
      out = `${e.stdout ?? ""}${e.stderr ?? ""}`;
    }
    expect(code, out).toBe(0);
    expect(out).toContain("# ods_role.org_readers_12373D5C has moved to ods_role.platform_readers_7CCC17AA");
    expect(out).toContain("# ods_api_token.org_ci_0C9B4C11 has moved to ods_api_token.platform_ci_632FCCEE");
    expect(out).toContain('.moveFromId("ods_api_token.org_ci_0C9B4C11")');
    expect(out).toContain("2 to move.");
    expect(out).toContain("Would move ods_api_token.org_ci_0C9B4C11 to ods_api_token.platform_ci_632FCCEE");
    expect(out).toMatch(/0 created, 0 adopted, 0 updated, 0 replaced, 0 rotated, 0 deleted, 0 forgotten, 2 moved/);
    expect(out).toContain("No changes.");
    // The objects are those of before: the same ids, and the token never rotated.
    expect((await admin.listRoles()).filter((r) => r.name === "readers").map((r) => r.id)).toEqual([roleMade.id]);
    const tokens = (await admin.listTokens()).filter((t) => t.name === "ci");
    expect(tokens.map((t) => [t.id, t.expiresAt || "never expires"])).toEqual([[tokenMade.id, "never expires"]]);
    const state = JSON.parse(fs.readFileSync(path.join(work, "org-as-code", "terraform.org.tfstate"), "utf8")) as { resources: { type: string; name: string; instances: { attributes: { id: string } }[] }[] };
    expect(state.resources.map((r) => [`${r.type}.${r.name}`, r.instances[0].attributes.id]).sort()).toEqual(
      [
        ["ods_api_token.platform_ci_632FCCEE", tokenMade.id],
        ["ods_role.platform_readers_7CCC17AA", roleMade.id],
      ].sort(),
    );
  }, 360_000);
});
