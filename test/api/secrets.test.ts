// No bearer token and no secret of a request body ever shows in an error: not in its
// message, stack, JSON, inspect or string form, even when the service echoes them back.
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { OdsApiError, OdsClient, type RequestEvent } from "../../src/api";
import { drop, fakeClock, json, startStub, type StubServer } from "./stub-server";

const TOKEN = "xapt-secret-bearer-93f1e07a";
const CHAT_TOKEN = "chatb-secret-41d9aa";
const ROUTING_KEY = "routing-secret-77c2";
const HEADER_SECRET = "hdr-secret-0b5e11";

let stub: StubServer | undefined;
let client: OdsClient | undefined;
afterEach(async () => {
  await client?.close();
  await stub?.close();
  client = undefined;
  stub = undefined;
});

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

async function caught(p: Promise<unknown>): Promise<OdsApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(OdsApiError);
    return err as OdsApiError;
  }
  throw new Error("expected a failure");
}

describe("errors carry no secret", () => {
  it("scrubs a service that echoes the Authorization header and the body's secrets", async () => {
    stub = await startStub((r, res) =>
      json(res, 400, {
        code: 400,
        message: `invalid properties.chatB.chatBToken "${CHAT_TOKEN}" (auth was ${r.headers.authorization}); routingKey ${ROUTING_KEY}; header ${HEADER_SECRET}`,
        detail: { message: `echo ${TOKEN} ${CHAT_TOKEN}`, line: 1, column: 2 },
      }),
    );
    client = new OdsClient({ url: stub.url, token: TOKEN });
    const err = await caught(client.createNotifier(notifier));
    expect(err.status).toBe(400);
    expect(err.serviceMessage).toContain("properties.chatB.chatBToken"); // the field is still named
    expect(err.detail).toMatchObject({ line: 1, column: 2 });
    const text = renderings(err);
    for (const secret of [TOKEN, CHAT_TOKEN, ROUTING_KEY, HEADER_SECRET]) expect(text).not.toContain(secret);
  });

  it("keeps a network failure and a timeout free of the token", async () => {
    stub = await startStub((r, res) => (r.method === "POST" ? drop(res) : undefined));
    client = new OdsClient({ url: stub.url, token: TOKEN, timeoutMs: 100, maxRetries: 0 }, { clock: fakeClock() });
    const network = await caught(client.createNotifier(notifier));
    const timeout = await caught(client.listNotifiers());
    expect(network.kind).toBe("network");
    expect(timeout.kind).toBe("timeout");
    for (const err of [network, timeout]) {
      const text = renderings(err);
      for (const secret of [TOKEN, CHAT_TOKEN, ROUTING_KEY, HEADER_SECRET]) expect(text).not.toContain(secret);
    }
  });

  it("never hands the token or a body to onRequest", async () => {
    const events: RequestEvent[] = [];
    stub = await startStub((_r, res) => json(res, 200, { id: "n1", ...notifier }));
    client = new OdsClient({ url: stub.url, token: TOKEN, onRequest: (e) => events.push(e) });
    await client.createNotifier(notifier);
    expect(events).toHaveLength(1);
    expect(Object.keys(events[0]).sort()).toEqual(["attempt", "durationMs", "method", "path", "status"]);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(JSON.stringify(events)).not.toContain(CHAT_TOKEN);
  });

  it("does not show the token when the client is logged or serialized", async () => {
    stub = await startStub((_r, res) => json(res, 200, []));
    client = new OdsClient({ url: stub.url, token: TOKEN, orgId: "org-1" });
    await client.listRoles();
    const shown = [inspect(client, { depth: 10 }), JSON.stringify(client), String(client), JSON.stringify(client.stats())].join("\n");
    expect(shown).toContain(stub.url); // still useful to look at
    expect(shown).not.toContain(TOKEN);
  });
});
