// The demo's webhook receiver: a small HTTP server on 127.0.0.1 that records the alerts
// the emulator delivers, so that `ods demo` can show one. Its URL is part of the example
// stack (a notifier's url), so it should keep its port from run to run: it takes the port
// it is given (the one the last run used), else a fixed default, and only when that is
// taken any free one.
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** The receiver's port when no earlier run chose one. */
export const DEFAULT_ALERT_PORT = 47_311;
/** Larger bodies are cut: an alert is a few hundred bytes. */
const MAX_BODY_BYTES = 64 * 1024;
/** Only the latest alerts are kept. */
const MAX_KEPT = 100;

export interface ReceivedAlert {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface AlertReceiver {
  /** Where alerts are posted: http://127.0.0.1:PORT/alerts */
  url: string;
  port: number;
  received: ReceivedAlert[];
  close(): Promise<void>;
}

function listen(server: http.Server, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      server.off("listening", onListening);
      if (err.code === "EADDRINUSE" || err.code === "EACCES") resolve(false);
      else reject(err);
    };
    const onListening = (): void => {
      server.off("error", onError);
      resolve(true);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, "127.0.0.1");
  });
}

export async function startAlertReceiver(preferredPort = DEFAULT_ALERT_PORT): Promise<AlertReceiver> {
  const received: ReceivedAlert[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (received.length > MAX_KEPT) received.shift();
      res.writeHead(204);
      res.end();
    });
  });
  if (!(await listen(server, preferredPort))) await listen(server, 0);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/alerts`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
