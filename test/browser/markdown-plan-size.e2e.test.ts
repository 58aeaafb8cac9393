// A pull-request comment of a plan of 1,000 changes (960 datasets and 40 monitors with a
// backtest each) against the emulator over HTTP: it stays under GitHub's 65,536-character
// limit by leaving out detail in the stated order, says at the top what it left out and
// where the whole plan is, and what it keeps still draws in mermaid.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMENT_LIMIT } from "../../src/cli/plan-markdown";
import { hasChromium, launchChromium, mermaidBlocks, renderMermaid, type BrowserSession } from "../helpers/chromium";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";
import { startTestEmulator, type TestEmulator } from "../emulator/helpers";

const FIVE_MIN = 300_000;
const DATASETS = 960;
const MONITORS = 40;

let emu: TestEmulator;
let env: Record<string, string>;
const dir = tempDir("ods-md-size-");
let markdown = "";

beforeAll(async () => {
  emu = await startTestEmulator();
  env = { ODS_URL: emu.em.url, ODS_TOKEN: emu.em.adminToken };
  await emu.ok("POST", "/v2/datasets", { name: "shop" });
  const base = Math.floor(Date.now() / FIVE_MIN) * FIVE_MIN - 3 * 3_600_000;
  await emu.ok(
    "POST",
    "/v1/datasets/shop/ingest",
    Array.from({ length: 12 }, (_, i) => ({ _time: new Date(base + 10_000 + i * 1000).toISOString(), status: 500, service: "api" })),
  );
  // Names as teams write them: a table of 1,000 such rows alone passes the limit.
  const datasets = Object.fromEntries(
    Array.from({ length: DATASETS }, (_, i) => [`logs_of_the_checkout_service_team_${String(i).padStart(4, "0")}`, { name: `checkout-team-logs-${i}`, description: "request logs" }]),
  );
  // The same query at 40 thresholds: one read serves every backtest, 40 charts to draw.
  const monitors = Object.fromEntries(
    Array.from({ length: MONITORS }, (_, i) => [
      `errors_${String(i).padStart(2, "0")}`,
      { name: `checkout errors above ${i}`, type: "Threshold", apl_query: "['shop'] | where status >= 500 | summarize count() by service", operator: "Above", threshold: i, interval_minutes: 5, range_minutes: 5 },
    ]),
  );
  writeStack(dir, { resource: { ods_dataset: datasets, ods_monitor: monitors } });
  const md = await runOds(["plan", "--format", "markdown", ...stackFlags(dir)], { env, timeoutMs: 240_000 });
  expect(md.code, md.stderr).toBe(0);
  markdown = md.stdout;
}, 300_000);

afterAll(async () => {
  await emu?.close();
  removeTempDirs();
});

describe("the markdown plan of 1,000 changes", () => {
  it("stays under the comment limit and says what it left out, in the stated order", () => {
    expect(markdown.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(markdown).toContain("**Plan:** 1000 to create");
    const note = markdown.split("\n").find((l) => l.startsWith("> **Shortened**"));
    // Steps 1, 3 and 4 were needed (a plan of creations has no live definition to leave out).
    expect(note).toBe(
      "> **Shortened** to stay under the comment limit of 65,536 characters. Left out: the folded full plan text; " +
        `30 charts after the first 10; 900 table rows after the first 100 of a stack (marked "… and K more"). ` +
        "The output of `ods plan` (or `--format json`) in the CI job has all of it.",
    );
    expect(markdown).not.toContain("<details><summary>Full plan</summary>");
    expect(mermaidBlocks(markdown)).toHaveLength(10);
    const rows = markdown.split("\n").filter((l) => /^\| (create|…) \|/.test(l));
    expect(rows).toHaveLength(101);
    expect(rows[100]).toBe("| … | and 900 more changes | |");
  });

  it("keeps every backtest summary (40 notes), charted or not", () => {
    const summaries = markdown.split("\n").filter((l) => /^\*\*`ods_monitor\.errors_\d\d`\*\*: backtest 7d: would have opened/.test(l));
    expect(summaries).toHaveLength(MONITORS);
  });
});

describe.skipIf(!hasChromium)("the shortened comment in Chromium", () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await launchChromium();
  });
  afterAll(async () => {
    await session?.close();
  });

  it("draws every chart it kept", async () => {
    const drawn = await renderMermaid(session, mermaidBlocks(markdown));
    expect(drawn.filter((d) => !d.ok)).toEqual([]);
  }, 60_000);
});
