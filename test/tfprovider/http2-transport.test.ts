// The plugin transport (our own HTTP/2 + gRPC framing) against node:http2's client as an
// independent peer, over mutual TLS on a unix socket as Terraform uses it.
import * as fs from "node:fs";
import * as http2 from "node:http2";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import * as tls from "node:tls";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSelfSignedCertificate, type SelfSignedCertificate } from "../../src/tfprovider/protocol/certificate";
import { PreEncoded } from "../../src/tfprovider/protocol/codec";
import { type BoundServer, bindPluginServer, type OpenStream, type Route } from "../../src/tfprovider/protocol/transport";

const MiB = 1024 * 1024;

/** A 1 MiB answer whose bytes depend on their position, so a misplaced frame shows. */
const BIG = Buffer.alloc(MiB, 0);
for (let i = 0; i < BIG.length; i++) BIG[i] = (i * 31 + (i >> 10)) & 0xff;

interface Harness {
  slowStarted: Promise<void>;
  releaseSlow: () => void;
  streams: OpenStream[];
  streamClosed: number;
}

function routes(h: Harness): Map<string, Route> {
  const bytes = {
    decode: (body: Buffer) => ({ body }),
    encode: (message: object) => (message instanceof PreEncoded ? message.bytes : (message as { body: Buffer }).body),
  };
  let markStarted: () => void = () => undefined;
  h.slowStarted = new Promise((resolve) => (markStarted = resolve));
  const released = new Promise<void>((resolve) => (h.releaseSlow = resolve));
  return new Map<string, Route>([
    // Echo, except "big" which answers 1 MiB.
    ["/test.Echo/Unary", { ...bytes, unary: async (req) => ((req.body as Buffer).toString() === "big" ? new PreEncoded(BIG) : req) }],
    [
      "/test.Echo/Slow",
      {
        ...bytes,
        unary: async (req) => {
          markStarted();
          await released;
          return req;
        },
      },
    ],
    [
      "/test.Echo/Fail",
      {
        ...bytes,
        unary: async () => {
          throw new Error("no such thing: 100% gone");
        },
      },
    ],
    [
      "/plugin.GRPCStdio/StreamStdio",
      {
        ...bytes,
        stream: (stream) => {
          h.streams.push(stream);
          stream.onClose(() => h.streamClosed++);
        },
      },
    ],
  ]);
}

function grpcBody(message: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

interface Answer {
  status: string | undefined;
  message: string | undefined;
  httpStatus: number | undefined;
  body: Buffer;
}

function connect(server: BoundServer, cert: SelfSignedCertificate | null, options: http2.SecureClientSessionOptions = {}): http2.ClientHttp2Session {
  const session = http2.connect(cert ? "https://localhost" : "http://localhost", {
    ...options,
    createConnection: () =>
      server.certPem && cert
        ? tls.connect({ path: server.listen.address, ca: server.certPem, key: cert.keyPem, cert: cert.certPem, ALPNProtocols: ["h2"], servername: "localhost" })
        : net.connect(server.listen.address),
  });
  session.on("error", () => undefined);
  return session;
}

/** Whether a call on the session is served, or refused (the call fails or the session closes). */
function outcomeOf(session: http2.ClientHttp2Session): Promise<unknown> {
  return Promise.race([
    call(session, "/test.Echo/Unary", Buffer.from("x")).then(
      () => "served",
      () => "refused",
    ),
    new Promise((resolve) => session.on("close", () => resolve("refused"))),
  ]);
}

function call(session: http2.ClientHttp2Session, method: string, message: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ":method": "POST", ":path": method, "content-type": "application/grpc+proto", te: "trailers" });
    let headers: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on("response", (h) => (headers = h));
    req.on("trailers", (t) => (trailers = t));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", reject);
    // A stream that closes without its end was dropped (after "end", this does nothing).
    req.on("close", () => reject(new Error(`stream closed without an answer (code ${req.rstCode})`)));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const status = (trailers["grpc-status"] ?? headers["grpc-status"]) as string | undefined;
      const message = (trailers["grpc-message"] ?? headers["grpc-message"]) as string | undefined;
      // Without a grpc-status the call did not complete (gRPC clients report it as an error).
      if (status === undefined) return reject(new Error("the stream ended without grpc-status"));
      resolve({ status, message: message && decodeURIComponent(message), httpStatus: headers[":status"] as number | undefined, body: body.length >= 5 ? body.subarray(5) : body });
    });
    req.end(grpcBody(message));
  });
}

/** Every byte a raw TLS client receives until the server closes the connection. */
function rawExchange(server: BoundServer, cert: SelfSignedCertificate, send: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ path: server.listen.address, ca: server.certPem!, key: cert.keyPem, cert: cert.certPem, ALPNProtocols: ["h2"], servername: "localhost" });
    const got: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error("the server did not close the connection"));
    }, 5000);
    socket.on("secureConnect", () => socket.write(send));
    socket.on("data", (d: Buffer) => got.push(d));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(got));
    });
  });
}

/** The frame types in a byte string of HTTP/2 frames (server side, no preface). */
function frameTypes(bytes: Buffer): number[] {
  const types: number[] = [];
  for (let at = 0; at + 9 <= bytes.length; at += 9 + bytes.readUIntBE(at, 3)) types.push(bytes[at + 3]);
  return types;
}

function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
}
const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

describe("plugin transport over our HTTP/2 with mutual TLS", () => {
  let tmp: string;
  let terraformCert: SelfSignedCertificate;
  let server: BoundServer;
  let harness: Harness;
  const sessions: http2.ClientHttp2Session[] = [];
  const open = (options?: http2.SecureClientSessionOptions) => {
    const s = connect(server, terraformCert, options);
    sessions.push(s);
    return s;
  };

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tfp-transport-test-"));
    terraformCert = createSelfSignedCertificate();
    harness = { slowStarted: Promise.resolve(), releaseSlow: () => undefined, streams: [], streamClosed: 0 };
    server = await bindPluginServer(routes(harness), { clientCertPem: terraformCert.certPem, socketDir: tmp });
  });

  afterEach(() => {
    for (const s of sessions.splice(0)) s.destroy();
  });

  afterAll(() => {
    server?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("serves many sequential unary calls on one connection", async () => {
    const session = open();
    for (let i = 0; i < 300; i++) {
      const answer = await call(session, "/test.Echo/Unary", Buffer.from(`call ${i}`));
      expect(answer).toMatchObject({ status: "0", httpStatus: 200 });
      expect(answer.body.toString()).toBe(`call ${i}`);
    }
  });

  it("serves 200 concurrent unary calls", async () => {
    const session = open();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => call(session, "/test.Echo/Unary", Buffer.from(`c${i}`))));
    expect(answers.map((a) => a.body.toString())).toEqual(Array.from({ length: 200 }, (_, i) => `c${i}`));
    expect(answers.every((a) => a.status === "0")).toBe(true);
  });

  it("takes a 1 MiB request and sends a 1 MiB answer through flow control", async () => {
    // node's client starts with 64 KiB windows: the answer must wait for its WINDOW_UPDATEs.
    const session = open();
    const echoed = await call(session, "/test.Echo/Unary", BIG);
    expect(echoed.status).toBe("0");
    expect(echoed.body.equals(BIG)).toBe(true);
    const big = await call(session, "/test.Echo/Unary", Buffer.from("big"));
    expect(big.body.equals(BIG)).toBe(true);
  });

  it("follows a client that changes its window mid-connection and pads its frames", async () => {
    const session = open({ paddingStrategy: http2.constants.PADDING_STRATEGY_MAX });
    expect((await call(session, "/test.Echo/Unary", Buffer.from("x"))).body.toString()).toBe("x");
    await new Promise<void>((resolve) => session.settings({ initialWindowSize: 1000, maxFrameSize: 20000 }, () => resolve()));
    const small = await call(session, "/test.Echo/Unary", Buffer.from("big"));
    expect(small.body.equals(BIG)).toBe(true);
    await new Promise<void>((resolve) => session.settings({ initialWindowSize: 4 * MiB }, () => resolve()));
    const wide = await call(session, "/test.Echo/Unary", BIG);
    expect(wide.body.equals(BIG)).toBe(true);
  });

  it("reads a header block split over HEADERS and CONTINUATION frames", async () => {
    // 40 kB of headers is more than one 16 kB frame: node's client adds CONTINUATIONs.
    const session = open();
    const req = session.request({ ":method": "POST", ":path": "/test.Echo/Unary", "content-type": "application/grpc+proto", "x-long-a": "a".repeat(20_000), "x-long-b": "b".repeat(20_000) });
    const trailers = new Promise<http2.IncomingHttpHeaders>((resolve) => req.on("trailers", resolve));
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.end(grpcBody(Buffer.from("long")));
    expect((await trailers)["grpc-status"]).toBe("0");
    expect(Buffer.concat(chunks).subarray(5).toString()).toBe("long");
    expect((await call(session, "/test.Echo/Unary", Buffer.from("next"))).body.toString()).toBe("next");
  });

  it("answers an unknown method with UNIMPLEMENTED trailers-only, and a failing handler with its message", async () => {
    const session = open();
    const unknown = await call(session, "/test.Echo/Nope", Buffer.from("x"));
    expect(unknown).toMatchObject({ status: "12", httpStatus: 200, message: "unknown method /test.Echo/Nope" });
    expect(unknown.body.length).toBe(0);
    const failed = await call(session, "/test.Echo/Fail", Buffer.from("x"));
    expect(failed).toMatchObject({ status: "2", message: "no such thing: 100% gone" });
    expect((await call(session, "/test.Echo/Unary", Buffer.from("after"))).body.toString()).toBe("after");
  });

  it("keeps serving others when a client resets a stream mid-request", async () => {
    const session = open();
    const req = session.request({ ":method": "POST", ":path": "/test.Echo/Unary", "content-type": "application/grpc+proto" });
    req.on("error", () => undefined);
    req.write(Buffer.concat([Buffer.from([0, 0, 0, 1, 0]), Buffer.alloc(100)])); // promises 256 bytes, sends 100
    await new Promise((resolve) => setTimeout(resolve, 20));
    req.close(http2.constants.NGHTTP2_CANCEL);
    const answers = await Promise.all([1, 2, 3].map((i) => call(session, "/test.Echo/Unary", Buffer.from(`n${i}`))));
    expect(answers.map((a) => a.body.toString())).toEqual(["n1", "n2", "n3"]);
  });

  it("answers PING", async () => {
    const session = open();
    await new Promise<void>((resolve) => session.once("connect", () => resolve()));
    const payload = Buffer.from("pingpong");
    const echoed = await new Promise<Buffer>((resolve, reject) => session.ping(payload, (err, _ms, back) => (err ? reject(err) : resolve(back))));
    expect(echoed.equals(payload)).toBe(true);
  });

  it("closes a connection that starts with garbage, and only that one", async () => {
    const session = open();
    const got = await rawExchange(server, terraformCert, Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    // Our SETTINGS (and window update), then GOAWAY.
    expect(frameTypes(got)).toContain(0x7);
    expect((await call(session, "/test.Echo/Unary", Buffer.from("still here"))).body.toString()).toBe("still here");
  });

  it("answers a protocol error with GOAWAY PROTOCOL_ERROR and closes the connection", async () => {
    const settings = frame(0x4, 0, 0, Buffer.alloc(0));
    const dataOnStreamZero = frame(0x0, 0, 0, Buffer.from("x"));
    const got = await rawExchange(server, terraformCert, Buffer.concat([PREFACE, settings, dataOnStreamZero]));
    const types = frameTypes(got);
    expect(types).toContain(0x7);
    let at = 0;
    while (got[at + 3] !== 0x7) at += 9 + got.readUIntBE(at, 3);
    expect(got.readUInt32BE(at + 9 + 4)).toBe(0x1); // PROTOCOL_ERROR
  });

  it("refuses a client that does not present Terraform's certificate", async () => {
    const stranger = connect(server, createSelfSignedCertificate());
    sessions.push(stranger);
    expect(await outcomeOf(stranger)).toBe("refused");
  });

  it("refuses a TLS client that presents no certificate at all", async () => {
    const bare = http2.connect("https://localhost", {
      createConnection: () => tls.connect({ path: server.listen.address, ca: server.certPem!, ALPNProtocols: ["h2"], servername: "localhost" }),
    });
    bare.on("error", () => undefined);
    sessions.push(bare);
    expect(await outcomeOf(bare)).toBe("refused");
  });
});

describe("plugin transport shutdown", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tfp-transport-stop-"));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("lets an in-flight call finish, ends the held-open stream with status 0, then removes the socket", async () => {
    const cert = createSelfSignedCertificate();
    const harness: Harness = { slowStarted: Promise.resolve(), releaseSlow: () => undefined, streams: [], streamClosed: 0 };
    const server = await bindPluginServer(routes(harness), { clientCertPem: cert.certPem, socketDir: tmp });
    const session = connect(server, cert);
    try {
      // The held-open stream (go-plugin's StreamStdio).
      const stdio = session.request({ ":method": "POST", ":path": "/plugin.GRPCStdio/StreamStdio", "content-type": "application/grpc+proto", te: "trailers" });
      const stdioTrailers = new Promise<http2.IncomingHttpHeaders>((resolve) => stdio.on("trailers", resolve));
      const stdioEnded = new Promise<void>((resolve) => stdio.on("end", resolve));
      stdio.on("data", () => undefined);
      stdio.end(grpcBody(Buffer.alloc(0)));
      await new Promise((resolve) => stdio.on("response", resolve));

      const slow = call(session, "/test.Echo/Slow", Buffer.from("late"));
      await harness.slowStarted;
      const stopped = server.shutdown(5000);
      expect((await stdioTrailers)["grpc-status"]).toBe("0");
      await stdioEnded;
      expect(harness.streamClosed).toBe(1);
      harness.releaseSlow();
      const answer = await slow;
      expect(answer).toMatchObject({ status: "0" });
      expect(answer.body.toString()).toBe("late");
      await stopped;
      expect(fs.existsSync(server.listen.address)).toBe(false);
    } finally {
      session.destroy();
      server.close();
    }
  });

  it("serves plain HTTP/2 without a client certificate, and close() stops at once", async () => {
    const harness: Harness = { slowStarted: Promise.resolve(), releaseSlow: () => undefined, streams: [], streamClosed: 0 };
    const server = await bindPluginServer(routes(harness), { clientCertPem: null, socketDir: tmp });
    expect(server.certDer).toBeNull();
    const session = connect(server, null);
    try {
      expect((await call(session, "/test.Echo/Unary", Buffer.from("plain"))).body.toString()).toBe("plain");
      const slow = call(session, "/test.Echo/Slow", Buffer.from("never")).then(
        () => "answered",
        () => "dropped",
      );
      await harness.slowStarted;
      server.close();
      const closed = new Promise((resolve) => session.on("close", resolve));
      await closed;
      expect(await slow).toBe("dropped");
      expect(fs.existsSync(path.dirname(server.listen.address))).toBe(false);
    } finally {
      session.destroy();
      harness.releaseSlow();
    }
  });
});
