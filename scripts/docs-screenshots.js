#!/usr/bin/env node
// docs/images: the pictures of the guides' "Charts in review" sections, made by the browser
// test itself (test/browser/html-plan.test.ts: a real plan against the emulator, drawn in
// Chromium). The test writes its screenshots into a scratch directory; the chart ones and
// the SLO report are copied here (the whole plan page is left out: it is large and says
// nothing a chart does not).
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawnSync } = require("node:child_process");

const ROOT = path.resolve(__dirname, "..");
const OUT = path.join(ROOT, "docs/images");
const PICTURES = ["html-plan-backtest", "html-plan-slo-budget", "html-plan-slo-burn", "html-plan-dashboard-layout", "slo-report"];

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ods-screenshots-"));
try {
  const run = spawnSync(process.execPath, [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "test/browser/html-plan.test.ts"], {
    cwd: ROOT,
    stdio: "inherit",
    // Without Chromium the test would skip and leave the old pictures: fail instead.
    env: { ...process.env, ODS_SCREENSHOT_DIR: scratch, ODS_REQUIRE_CHROMIUM: "1" },
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
  fs.mkdirSync(OUT, { recursive: true });
  for (const name of PICTURES) {
    const from = path.join(scratch, `${name}.png`);
    if (!fs.existsSync(from)) throw new Error(`the browser test made no ${name}.png`);
    fs.copyFileSync(from, path.join(OUT, `${name}.png`));
    process.stdout.write(`wrote docs/images/${name}.png\n`);
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
