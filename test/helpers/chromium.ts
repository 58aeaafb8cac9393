// Drives Debian's Chromium (/usr/bin/chromium, or ODS_CHROMIUM) with playwright-core, which
// downloads no browser. Where Chromium is missing the browser tests skip, except when
// ODS_REQUIRE_CHROMIUM=1 (set by .ci/run), where they fail: a CI runner that lost the
// browser must not pass by testing nothing.
//
// A page is loaded with every request refused and recorded, except those to `allowOrigin`
// (the server a test started on 127.0.0.1), so "no request beyond the page" is asserted,
// not assumed. Screenshots go under test-output/screenshots (ODS_SCREENSHOT_DIR), for review.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.ODS_CHROMIUM ?? "/usr/bin/chromium";

function chromiumMissing(): string | undefined {
  try {
    fs.accessSync(CHROMIUM_PATH, fs.constants.X_OK);
    return undefined;
  } catch {
    return `${CHROMIUM_PATH} is not there (install Debian's chromium package, or set ODS_CHROMIUM)`;
  }
}

const missing = chromiumMissing();
if (missing && process.env.ODS_REQUIRE_CHROMIUM === "1") {
  throw new Error(`ODS_REQUIRE_CHROMIUM=1 and Chromium cannot run: ${missing}`);
}
/** Use as `describe.skipIf(!hasChromium)`. */
export const hasChromium = missing === undefined;

/** Flags for a closed network: without the background-networking ones Chromium keeps dialling out. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--mute-audio",
];

export const SCREENSHOT_DIR = process.env.ODS_SCREENSHOT_DIR ?? path.resolve(__dirname, "../../test-output/screenshots");

export interface LoadedPage {
  page: Page;
  /** Console messages of type error, and uncaught page errors. */
  consoleErrors: string[];
  /** Every request the page made beyond itself (refused). */
  externalRequests: string[];
  /** Saves a full-page PNG as SCREENSHOT_DIR/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
}

export interface BrowserSession {
  /** Loads an HTML document as is (no server): `setContent`. */
  loadHtml(html: string, options?: { width?: number; height?: number }): Promise<LoadedPage>;
  /** Loads a URL; only requests to its origin are let through. */
  loadUrl(url: string, options?: { width?: number; height?: number }): Promise<LoadedPage>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<BrowserSession> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-chromium-"));
  // launchPersistentContext is what takes a user data dir; a fresh one per session.
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    // Chromium inherits only what it needs: no ODS_* token or other secret of the test run.
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: userDataDir, LANG: "C.UTF-8" },
    viewport: { width: 1280, height: 900 },
  });
  const browser: Browser | null = context.browser();
  const load = async (go: (page: Page) => Promise<unknown>, allowOrigin: string | undefined, size?: { width?: number; height?: number }): Promise<LoadedPage> => {
    const page = await context.newPage();
    if (size?.width || size?.height) await page.setViewportSize({ width: size.width ?? 1280, height: size.height ?? 900 });
    const consoleErrors: string[] = [];
    const externalRequests: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(`uncaught: ${e.message}`));
    await page.route("**/*", async (route) => {
      const url = route.request().url();
      if (allowOrigin !== undefined && new URL(url).origin === allowOrigin) return route.continue();
      // data: URLs never reach route(); anything here leaves the page.
      externalRequests.push(url);
      return route.abort("blockedbyclient");
    });
    await go(page);
    return {
      page,
      consoleErrors,
      externalRequests,
      async screenshot(name: string) {
        fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
        const file = path.join(SCREENSHOT_DIR, `${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        return file;
      },
    };
  };
  return {
    loadHtml: (html, size) => load((p) => p.setContent(html, { waitUntil: "load" }), undefined, size),
    loadUrl: (url, size) => load((p) => p.goto(url, { waitUntil: "load" }), new URL(url).origin, size),
    async close() {
      await context.close();
      await browser?.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Parses and renders mermaid blocks with mermaid itself (its browser build, loaded from
 * node_modules into a blank page: no request leaves it). Returns, per block, the error
 * mermaid gave, or the size of the SVG it drew.
 */
export async function renderMermaid(session: BrowserSession, blocks: string[]): Promise<({ ok: true; width: number; height: number } | { ok: false; error: string })[]> {
  const loaded = await session.loadHtml("<!doctype html><html><body><div id=out></div></body></html>");
  try {
    await loaded.page.addScriptTag({ path: require.resolve("mermaid/dist/mermaid.min.js") });
    return await loaded.page.evaluate(async (sources: string[]) => {
      const m = (window as unknown as { mermaid: { initialize(c: object): void; parse(s: string): Promise<unknown>; render(id: string, s: string): Promise<{ svg: string }> } }).mermaid;
      m.initialize({ startOnLoad: false, securityLevel: "strict" });
      const results: ({ ok: true; width: number; height: number } | { ok: false; error: string })[] = [];
      let n = 0;
      for (const source of sources) {
        try {
          await m.parse(source);
          const { svg } = await m.render(`m${n++}`, source);
          const host = document.getElementById("out")!;
          host.innerHTML = svg;
          const box = host.querySelector("svg")!.getBoundingClientRect();
          results.push({ ok: true, width: box.width, height: box.height });
        } catch (e) {
          results.push({ ok: false, error: String((e as Error).message ?? e) });
        }
      }
      return results;
    }, blocks);
  } finally {
    await loaded.page.close();
  }
}

/** The bodies of the ```mermaid fences of a markdown document. */
export function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}
