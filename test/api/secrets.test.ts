// No bearer token and no secret of a request body ever shows in an error: not in its
// message, stack, JSON, inspect or string form, even when the service echoes them back.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import type { RequestEvent } from "../../src/api";
import { apiFailure, drop, json, stubHarness } from "./helpers";

const TOKEN = "xapt-secret-bearer-93f1e07a";
const CHAT_TOKEN = "chatb-secret-41d9aa";
const ROUTING_KEY = "routing-secret-77c2";
const HEADER_SECRET = "hdr-secret-0b5e11";

const { setup } = stubHarness(TOKEN);

function renderings(err: unknown): string {
  const e = err as Error;
  return [e.message, e.stack, String(e), JSON.stringify(e), inspect(e, { depth: 10, showHidden: true })].join("\n");
}

const notifier = {
  name: "oncall",
  properties: {
    chatB: { chatBChannel: "#ops", chatBToken: CHAT_TOKEN },
    incidentB: { routingKey: ROUTING_KEY },
    customWebhook: { url: "https://hooks.example/a", secretHeaders: { "X-Signature": HEADER_SECRET } },
  },
};

describe("errors carry no secret", () => {
  it("scrubs a service that echoes the Authorization header and the body's secrets", async () => {
    const { client } = await setup((r, res) =>
      json(res, 400, {
        code: 400,
        message: `invalid properties.chatB.chatBToken "${CHAT_TOKEN}" (auth was ${r.headers.authorization}); routingKey ${ROUTING_KEY}; header ${HEADER_SECRET}`,
        detail: { message: `echo ${TOKEN} ${CHAT_TOKEN}`, line: 1, column: 2 },
      }),
    );
    const err = await apiFailure(client.createNotifier(notifier));
    expect(err.status).toBe(400);
    expect(err.serviceMessage).toContain("properties.chatB.chatBToken"); // the field is still named
    expect(err.detail).toMatchObject({ line: 1, column: 2 });
    const text = renderings(err);
    for (const secret of [TOKEN, CHAT_TOKEN, ROUTING_KEY, HEADER_SECRET]) expect(text).not.toContain(secret);
  });

  it("keeps a network failure and a timeout free of the token", async () => {
    const { client } = await setup((r, res) => (r.method === "POST" ? drop(res) : undefined), { timeoutMs: 100, maxRetries: 0 });
    const network = await apiFailure(client.createNotifier(notifier));
    const timeout = await apiFailure(client.listNotifiers());
    expect(network.kind).toBe("network");
    expect(timeout.kind).toBe("timeout");
    for (const err of [network, timeout]) {
      const text = renderings(err);
      for (const secret of [TOKEN, CHAT_TOKEN, ROUTING_KEY, HEADER_SECRET]) expect(text).not.toContain(secret);
    }
  });

  it("never hands the token or a body to onRequest", async () => {
    const events: RequestEvent[] = [];
    const { client } = await setup((_r, res) => json(res, 200, { id: "n1", ...notifier }), { onRequest: (e) => events.push(e) });
    await client.createNotifier(notifier);
    expect(events).toHaveLength(1);
    expect(Object.keys(events[0]).sort()).toEqual(["attempt", "durationMs", "method", "path", "status"]);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(JSON.stringify(events)).not.toContain(CHAT_TOKEN);
  });

  it("does not show the token when the client is logged or serialized", async () => {
    const { stub, client } = await setup((_r, res) => json(res, 200, []), { orgId: "org-1" });
    await client.listRoles();
    const shown = [inspect(client, { depth: 10 }), JSON.stringify(client), String(client), JSON.stringify(client.stats())].join("\n");
    expect(shown).toContain(stub.url); // still useful to look at
    expect(shown).not.toContain(TOKEN);
  });
});
