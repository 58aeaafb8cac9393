// A caller without a valid token costs the organization nothing: it does not spend the
// rate-limit budget, and its body is not read before the 401. (Issue 11, finding 10.)
import * as net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { emulatorPool } from "./helpers";

const pool = emulatorPool();
const emulator = pool.start;
afterEach(pool.closeAll);

/** Waits (bounded) until the current one-second rate window has most of its time left. */
async function startOfWindow(): Promise<void> {
  for (let i = 0; i < 20 && Date.now() % 1000 > 100; i++) await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
}

/**
 * Sends the head of a request that announces a large body, then only `sent` bytes of it,
 * and answers the first line of the response, or "no answer" after `waitMs`.
 */
function announceLargeBody(url: string, path: string, authorization: string | undefined, declared: number, sent: number, waitMs: number): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve("no answer");
    }, waitMs);
    socket.on("data", (d: Buffer) => {
      received += d.toString("latin1");
      const end = received.indexOf("\r\n");
      if (end !== -1) {
        clearTimeout(timer);
        socket.destroy();
        resolve(received.slice(0, end));
      }
    });
    socket.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    const head = [
      `POST ${path} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      "Content-Type: application/json",
      `Content-Length: ${declared}`,
      ...(authorization ? [`Authorization: ${authorization}`] : []),
      "",
      "",
    ].join("\r\n");
    socket.write(head);
    socket.write(Buffer.alloc(sent, 0x20));
  });
}

describe("requests without a valid token", () => {
  it("do not spend the organization's rate-limit budget", async () => {
    const t = await emulator({ rateLimitPerSecond: 20 });
    await startOfWindow();
    const anonymous = await Promise.all(
      Array.from({ length: 60 }, (_, i) => t.call("GET", "/v2/notifiers", { token: i % 2 === 0 ? null : "odst_wrong-secret" })),
    );
    expect(anonymous.every((r) => r.status === 401)).toBe(true);
    const admin = await t.call("GET", "/v2/notifiers");
    expect(admin.status, JSON.stringify(admin.body)).toBe(200);
    expect(Number(admin.headers.get("x-ratelimit-remaining"))).toBeGreaterThanOrEqual(18);
  });

  it("are answered 401 before their body is read", async () => {
    const t = await emulator();
    await t.ok("POST", "/v2/datasets", { name: "big" });
    const tenMiB = 10 * 1024 * 1024;
    for (const authorization of [undefined, "Bearer odst_wrong-secret"]) {
      const line = await announceLargeBody(t.em.url, "/v1/datasets/big/ingest", authorization, tenMiB, 1024, 3000);
      expect(line).toMatch(/^HTTP\/1\.1 401 /);
    }
    // A valid token still gets its body read: the same announcement waits for the rest.
    const line = await announceLargeBody(t.em.url, "/v1/datasets/big/ingest", `Bearer ${t.em.adminToken}`, tenMiB, 1024, 500);
    expect(line).toBe("no answer");
  });
});
