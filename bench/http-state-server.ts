// A small HTTP state server speaking the protocol of Terraform's http backend (as GitLab
// does): GET/POST the state, LOCK/UNLOCK with Terraform's lock record, basic auth. On
// 127.0.0.1, port 0; the test or benchmark that starts it closes it.
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface HttpStateServer {
  url: string;
  /** The backend block for cdk.tf.json / main.tf.json. */
  backend: Record<string, string>;
  state(): string | undefined;
  lock(): { ID: string; Who?: string; Operation?: string } | undefined;
  /** How many times the state was written (POST). */
  writes(): number;
  /** Every state written (POST), in order: what a test scans for values that must never be stored. */
  posted(): string[];
  close(): Promise<void>;
}

export async function startHttpStateServer(username = "ci", password = "s3cret-pass"): Promise<HttpStateServer> {
  let state: string | undefined;
  let lock: { ID: string } | undefined;
  let writes = 0;
  const bodies: string[] = [];
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const send = (status: number, text = ""): void => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(text);
      };
      if (req.headers.authorization !== expected) return send(401);
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname === "/state" && req.method === "GET") return state === undefined ? send(204) : send(200, state);
      if (url.pathname === "/state" && req.method === "POST") {
        if (lock && url.searchParams.get("ID") !== lock.ID) return send(423, JSON.stringify(lock));
        state = body;
        bodies.push(body);
        writes++;
        return send(200);
      }
      if (url.pathname === "/lock" && req.method === "LOCK") {
        if (lock) return send(423, JSON.stringify(lock));
        lock = JSON.parse(body) as { ID: string };
        return send(200);
      }
      if (url.pathname === "/lock" && req.method === "UNLOCK") {
        const info = JSON.parse(body || "{}") as { ID?: string };
        if (lock && info.ID !== lock.ID) return send(409, JSON.stringify(lock));
        lock = undefined;
        return send(200);
      }
      return send(405);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    backend: { address: `${url}/state`, lock_address: `${url}/lock`, unlock_address: `${url}/lock`, username, password },
    state: () => state,
    lock: () => lock,
    writes: () => writes,
    posted: () => [...bodies],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
