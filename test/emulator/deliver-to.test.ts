// Deliveries only where allowed: loopback by default, more with --deliver-to, and
// link-local and cloud metadata addresses never. The check runs before any socket: the
// `beforeConnect` hook sees every connection the emulator opens, and no test here sends
// anything off 127.0.0.1 (names are resolved by a fake resolver, never by DNS).
import { describe, expect, it } from "vitest";
import { checkTarget, parseDeliverTo, type Resolve } from "../../src/emulator/monitors/deliver-to";
import type { ConnectTarget } from "../../src/emulator";
import { history, ingestAt, min, monitorEnv, webhookNotifier } from "./monitor-helpers";

/** A resolver that answers from a table and records what it was asked. */
function fakeResolver(table: Record<string, string[]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string) => {
    asked.push(host);
    const found = table[host];
    if (!found) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

const LOOPBACK = parseDeliverTo(undefined);
const ANY = parseDeliverTo("any");

describe("the delivery target check", () => {
  it("allows loopback addresses and localhost by default, and refuses other hosts without resolving them", async () => {
    const dns = fakeResolver({ localhost: ["127.0.0.1"], "hooks.example.com": ["10.0.0.7"] });
    for (const url of ["http://127.0.0.1:9/x", "http://127.9.9.9/", "http://[::1]:8080/"]) expect((await checkTarget(new URL(url), LOOPBACK, dns)).ok, url).toBe(true);
    expect(await checkTarget(new URL("http://localhost:9/"), LOOPBACK, dns)).toEqual({ ok: true, address: "127.0.0.1", family: 4 });
    const refused = await checkTarget(new URL("https://hooks.example.com/x"), LOOPBACK, dns);
    expect(refused).toEqual({ ok: false, reason: expect.stringMatching(/hooks\.example\.com is not an allowed delivery host .*--deliver-to hooks\.example\.com/) });
    expect((await checkTarget(new URL("http://10.0.0.7/"), LOOPBACK, dns)).ok).toBe(false);
    expect(dns.asked).toEqual(["localhost"]);
  });

  it("refuses link-local and metadata addresses in every spelling, even with any", async () => {
    const dns = fakeResolver({ "rebind.example.com": ["10.0.0.1", "169.254.169.254"], "ok.example.com": ["10.0.0.2"] });
    const never = [
      "http://169.254.169.254/latest/meta-data/",
      "http://2852039166/",
      "http://0xA9FEA9FE/",
      "http://[::ffff:169.254.169.254]/",
      "http://[fe80::1]/",
      "http://[fd00:ec2::254]/",
      "http://100.100.100.200/",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://rebind.example.com/",
    ];
    for (const url of never) {
      const check = await checkTarget(new URL(url), ANY, dns);
      expect(check.ok, url).toBe(false);
      if (!check.ok) expect(check.reason, url).toMatch(/link-local or cloud metadata|metadata service/);
    }
    expect(dns.asked).toEqual(["rebind.example.com"]);
    expect(await checkTarget(new URL("https://ok.example.com/"), ANY, dns)).toEqual({ ok: true, address: "10.0.0.2", family: 4 });
  });

  it("opens the named hosts of --deliver-to, and only them", async () => {
    const policy = parseDeliverTo("hooks.internal, 10.0.0.9");
    const dns = fakeResolver({ "hooks.internal": ["10.0.0.8"] });
    expect((await checkTarget(new URL("http://hooks.internal/"), policy, dns)).ok).toBe(true);
    expect((await checkTarget(new URL("http://10.0.0.9/"), policy, dns)).ok).toBe(true);
    expect((await checkTarget(new URL("http://10.0.0.10/"), policy, dns)).ok).toBe(false);
    expect((await checkTarget(new URL("http://127.0.0.1:1/"), policy, dns)).ok).toBe(true);
    expect(() => parseDeliverTo("a.example.com,http://b/")).toThrow(/not a host name or address/);
  });
});

describe("refused deliveries", () => {
  const connects: ConnectTarget[] = [];
  const env = monitorEnv({ delivery: { maxAttempts: 2, baseDelayMs: 10, timeoutMs: 2000, beforeConnect: (t) => connects.push(t) } });

  it("are recorded in the deliveries, the outbox and the monitor's history, and open no connection", async () => {
    connects.length = 0;
    const metadata = await webhookNotifier(env.t, "http://169.254.169.254/latest/meta-data/iam/security-credentials/");
    const elsewhere = (await env.t.ok("POST", "/v2/notifiers", { name: "custom", properties: { customWebhook: { url: "http://10.11.12.13:8080/hook?token=q-SECRET", body: "" } } })).id as string;
    const local = await webhookNotifier(env.t, `${env.rx.url}/ok`);
    await ingestAt(env.t, "logs", [{ at: min(0) + 1, level: "error" }]);
    const monitor = (
      await env.t.ok("POST", "/v2/monitors", {
        name: "errors",
        type: "Threshold",
        operator: "Above",
        threshold: 0,
        aplQuery: "['logs'] | summarize count()",
        intervalMinutes: 1,
        rangeMinutes: 1,
        notifierIds: [metadata, elsewhere, local],
      })
    ).id as string;
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    const records = (await env.t.ok("POST", "/_emulator/deliveries/flush", { timeoutMs: 10_000 })) as { notifierId: string; status: string; attempts: number; lastError: string }[];
    const byNotifier = Object.fromEntries(records.map((r) => [r.notifierId, r]));
    expect(byNotifier[metadata]).toMatchObject({ status: "refused", attempts: 0, lastError: expect.stringMatching(/169\.254\.169\.254 is a link-local or cloud metadata address/) });
    expect(byNotifier[elsewhere]).toMatchObject({ status: "refused", attempts: 0, lastError: expect.stringMatching(/10\.11\.12\.13 is not an allowed delivery host/) });
    expect(byNotifier[local]).toMatchObject({ status: "delivered", attempts: 1 });
    // The only connection the emulator opened is the allowed one.
    expect(connects.map((c) => c.address)).toEqual(["127.0.0.1"]);
    expect(env.rx.received).toHaveLength(1);

    const outbox = (await env.t.ok("GET", "/_emulator/outbox")) as { notifierId: string; refused?: string; to: Record<string, unknown> }[];
    expect(outbox.filter((e) => e.refused !== undefined).map((e) => e.notifierId).sort()).toEqual([metadata, elsewhere].sort());
    expect(JSON.stringify(outbox)).not.toContain("SECRET");
    // The refusal is written to the history once the scheduler has had its turn.
    let entries: { state: string; message?: string }[] = [];
    for (let i = 0; i < 50 && entries.filter((e) => e.state === "error").length < 2; i++) {
      entries = await history(env.t, monitor);
      await new Promise((r) => setTimeout(r, 20));
    }
    const errors = entries.filter((e) => e.state === "error").map((e) => e.message ?? "");
    expect(errors).toHaveLength(2);
    expect(errors.join("\n")).toMatch(new RegExp(`delivery to notifier ${metadata} refused: 169\\.254\\.169\\.254`));
    expect(errors.join("\n")).not.toContain("SECRET");
    expect(entries.filter((e) => e.state === "open")).toHaveLength(1);
  });
});

describe("with --deliver-to any", () => {
  const connects: ConnectTarget[] = [];
  const env = monitorEnv({ deliverTo: "any", delivery: { maxAttempts: 1, beforeConnect: (t) => connects.push(t) } });

  it("still never contacts a metadata address", async () => {
    const hook = await webhookNotifier(env.t, "http://[::ffff:169.254.169.254]/latest");
    await ingestAt(env.t, "logs", [{ at: min(0) + 1, level: "error" }]);
    await env.t.ok("POST", "/v2/monitors", { name: "m", type: "Threshold", operator: "Above", threshold: 0, aplQuery: "['logs'] | summarize count()", intervalMinutes: 1, rangeMinutes: 1, notifierIds: [hook] });
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    const records = await env.t.ok("POST", "/_emulator/deliveries/flush", { timeoutMs: 5_000 });
    expect(records).toEqual([expect.objectContaining({ status: "refused", attempts: 0 })]);
    expect(connects).toEqual([]);
  });
});
