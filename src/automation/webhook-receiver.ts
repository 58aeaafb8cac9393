// The far end of a test's webhook notifiers: a small HTTP server on 127.0.0.1 (a port of
// its own) that records every request as it arrived, answers 200, and keeps the records
// in order. startEmulator's handle points notifiers at it (`webhookUrl(name)`) and reads
// them back (`deliveries()`), so a test sees what a real receiver would have seen.
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the receiver saw it: raw, before any secret is hidden. */
export interface ReceivedRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  /** Names of the query string's parameters (their values are not kept: a URL may carry credentials). */
  queryParameters: string[];
  /** Header names in lower case, as Node gives them. */
  headers: Record<string, string>;
  /** The body as text (UTF-8). */
  text: string;
  /** When the receiver had the whole body (wall clock, ISO 8601). */
  receivedAt: string;
}

/** Bodies past this are cut off and the request answered 413: a test's alerts are small. */
const MAX_BODY_BYTES = 1024 * 1024;
/** The oldest records go past this many, so a long real-clock run cannot grow without bound. */
const MAX_RECORDS = 10_000;

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  received(): ReceivedRequest[];
  clear(): void;
  close(): Promise<void>;
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const records: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      const target = new URL(req.url ?? "/", "http://receiver.invalid");
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) headers[name] = headerText(value);
      // Recorded before the answer: the emulator counts a first attempt done once it has the
      // answer, so whoever waited for it finds the record here.
      records.push({
        method: req.method ?? "",
        path: target.pathname,
        queryParameters: [...new Set(target.searchParams.keys())],
        headers,
        text: Buffer.concat(chunks).toString("utf8"),
        receivedAt: new Date().toISOString(),
      });
      if (records.length > MAX_RECORDS) records.splice(0, records.length - MAX_RECORDS);
      res.writeHead(tooLarge ? 413 : 200, { "content-type": "text/plain" }).end(tooLarge ? "too large\n" : "ok\n");
    });
    req.on("error", () => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => records.slice(),
    clear: () => {
      records.length = 0;
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
