// The browser harness itself: what the page tests rely on must be able to fail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium, mermaidBlocks, renderMermaid, type BrowserSession } from "../helpers/chromium";

describe.skipIf(!hasChromium)("chromium harness", () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await launchChromium();
  });
  afterAll(async () => {
    await session?.close();
  });

  it("records console errors and refuses every request beyond the page", async () => {
    const loaded = await session.loadHtml(`<!doctype html><html><body><img src="http://127.0.0.1:9/x.png" alt="x"><script>console.error("boom")</script></body></html>`);
    expect(loaded.consoleErrors.some((e) => e.includes("boom"))).toBe(true);
    expect(loaded.externalRequests).toEqual(["http://127.0.0.1:9/x.png"]);
    await loaded.page.close();
  });

  it("draws a valid mermaid xychart and reports an invalid one", async () => {
    const md = ["text", "```mermaid", "xychart-beta", '  x-axis "last 7d" 1 --> 3', "  line [1, 2, 3]", "```", "```mermaid", "xychart-beta", "  line [1, oops]", "```"].join("\n");
    const blocks = mermaidBlocks(md);
    expect(blocks).toHaveLength(2);
    const [good, bad] = await renderMermaid(session, blocks);
    expect(good.ok && good.width > 0 && good.height > 0).toBe(true);
    expect(bad.ok).toBe(false);
  });
});
