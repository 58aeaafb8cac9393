// The payments stack's alerting, tested the way a team would test its own: an emulator
// started from code for this file, the stack applied to it through the automation API,
// events sent, the clock moved, and the alerts that reached the webhooks checked, body
// and all. Run it with `npx vitest run` here (after `npm run build` in this repository;
// in your own project, import from "cdktf-provider-ods/automation" instead).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, Workspace, type EmulatorInstance } from "../../lib/automation";

/** N requests to the payments service, the first BAD of them answered with a server error. */
const requests = (n: number, bad: number): { status: number; path: string }[] =>
  Array.from({ length: n }, (_, i) => ({ status: i < bad ? 503 : 200, path: "/pay" }));

describe("payments alerting", () => {
  let em: EmulatorInstance;
  let work: string;

  beforeAll(async () => {
    em = await startEmulator();
    // Synthesized stacks and the state go to a directory of this run, not into the example.
    work = fs.mkdtempSync(path.join(os.tmpdir(), "ods-example-automation-"));
    const workspace = new Workspace({
      dir: __dirname,
      outDir: path.join(work, "cdktf.out"),
      state: path.join(work, "payments.tfstate"),
      url: em.url,
      token: em.token,
      orgId: em.orgId,
      variables: { oncall_webhook_url: em.webhookUrl("oncall"), pager_webhook_url: em.webhookUrl("pager") },
    });
    const applied = await workspace.apply({ autoApprove: true });
    expect(JSON.stringify(applied)).not.toContain(em.token);
  });

  afterAll(async () => {
    await em?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it("stays quiet while the service is healthy", async () => {
    await em.ingest("payments-logs", requests(40, 0));
    await em.advance("5m");
    expect(await em.deliveries()).toEqual([]);
  });

  it("alerts on-call and pages through the SLO when payments fail", async () => {
    await em.ingest("payments-logs", requests(30, 20));
    await em.advance("5m");
    const alerts = await em.deliveries();

    const oncall = alerts.filter((a) => a.name === "oncall");
    expect(oncall).toHaveLength(1);
    expect(oncall[0]).toMatchObject({ method: "POST", body: { action: "Open", event: { title: "payments 5xx", value: 20 } } });

    // The SLO's page pairs (1h/5m and 6h/30m) both burn: 20 bad of 70 in the hour is
    // 28.6% of requests failing, 28.6 times the 1% budget.
    const pages = alerts.filter((a) => a.name === "pager").map((a) => a.body as { page: string; action: string; burnRate: number });
    expect(pages.map((p) => p.page).sort()).toEqual(["SLO payments availability: page 1h/5m", "SLO payments availability: page 6h/30m"]);
    for (const page of pages) {
      expect(page.action).toBe("Open");
      expect(page.burnRate).toBeCloseTo((20 / 70) / 0.01, 1);
    }
  });

  it("tells on-call when it is over", async () => {
    em.clearDeliveries();
    await em.ingest("payments-logs", requests(40, 0));
    await em.advance("5m");
    const closed = (await em.deliveries()).filter((a) => a.name === "oncall");
    expect(closed).toHaveLength(1);
    expect(closed[0]!.body).toMatchObject({ action: "Closed", event: { title: "payments 5xx" } });
  });
});
