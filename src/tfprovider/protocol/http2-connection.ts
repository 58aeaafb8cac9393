// The server side of one HTTP/2 connection (RFC 9113), just what a gRPC server needs:
// request streams opened by the client, their header blocks and data in, header blocks and
// data out, flow control both ways, PING, RST_STREAM, SETTINGS and GOAWAY.
//
// Why not node:http2: profiles of `terraform plan` showed most of the provider's CPU in
// node:http2's per-stream machinery (a Duplex per stream, header objects, events), for
// calls that are one small message in and one out. Here a stream is a plain object and
// every answer's frames leave in one socket write.
//
// Errors of the peer never throw out of this module: a connection error answers GOAWAY and
// closes this connection (RFC 9113 5.4.1), a stream error answers RST_STREAM (5.4.2).
import type { Socket } from "node:net";
import { HpackDecoder, HpackError } from "./hpack-decoder";
import {
  CLIENT_PREFACE,
  DEFAULT_MAX_FRAME_SIZE,
  DEFAULT_WINDOW,
  ErrorCode,
  Flag,
  FRAME_HEADER_BYTES,
  FrameType,
  frame,
  goawayFrame,
  MAX_WINDOW,
  pushHeaderFrames,
  rstStreamFrame,
  Setting,
  SETTINGS_ACK,
  settingsFrame,
  windowUpdateFrame,
  writeFrameHeader,
} from "./http2-frames";

export interface Http2ConnectionOptions {
  /** Announced in SETTINGS; further streams are refused. */
  readonly maxConcurrentStreams: number;
  /** Our receive window per stream (SETTINGS_INITIAL_WINDOW_SIZE). */
  readonly streamWindow: number;
  /** Our receive window for the whole connection (raised by a WINDOW_UPDATE at start). */
  readonly connectionWindow: number;
  /** A new request stream, its headers decoded. Set its onData/onEnd before returning. */
  readonly onStream: (stream: Http2ServerStream) => void;
}

/** A peer's breach of the protocol that ends the connection. */
class ConnectionError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

// A header block is at most this large once its CONTINUATIONs are gathered: gRPC requests
// carry a handful of short headers, and an endless CONTINUATION chain must not grow memory.
const MAX_HEADER_BLOCK_BYTES = 256 * 1024;

/** One request stream: the client's headers and data in, our answer out. */
export class Http2ServerStream {
  /** Request body chunks (padding removed), in order. */
  onData: ((chunk: Buffer) => void) | null = null;
  /** The client ended its side (END_STREAM). */
  onEnd: (() => void) | null = null;

  /** @internal flow control and state, owned by the connection. */
  sendWindow: number;
  recvWindow: number;
  recvUnacknowledged = 0;
  remoteEnded = false;
  localEnded = false;
  closed = false;
  /** True when the stream closed without our END_STREAM: reset, or the connection went away. */
  aborted = false;
  headersSent = false;
  /** Data waiting for window, then the trailers (or a bare END_STREAM) once it is sent. */
  readonly pending: Buffer[] = [];
  pendingOffset = 0;
  endQueued = false;
  trailers: Buffer | null = null;
  private closeListeners: (() => void)[] = [];

  constructor(
    private readonly connection: Http2ServerConnection,
    readonly id: number,
    readonly headers: Readonly<Record<string, string>>,
    sendWindow: number,
    recvWindow: number,
  ) {
    this.sendWindow = sendWindow;
    this.recvWindow = recvWindow;
  }

  /** Called once when the stream closes for any reason (answered, reset, connection gone). */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** A header block (HPACK-encoded) opening our answer; endStream for a headers-only answer. */
  sendHeaders(block: Buffer, endStream: boolean): void {
    if (this.closed || this.endQueued) return;
    this.headersSent = true;
    this.connection.sendHeaders(this, block, endStream);
  }

  /** Body bytes; sent as the peer's windows allow, the rest queued. */
  sendData(data: Buffer): void {
    if (this.closed || this.endQueued || data.length === 0) return;
    this.pending.push(data);
    this.connection.flushStream(this);
  }

  /** Ends our side after the queued data: with a trailer block, or a bare END_STREAM. */
  end(trailers: Buffer | null): void {
    if (this.closed || this.endQueued) return;
    this.endQueued = true;
    this.trailers = trailers;
    this.connection.flushStream(this);
  }

  /** Abandons the stream (RST_STREAM). */
  reset(code: number = ErrorCode.CANCEL): void {
    if (!this.closed) this.connection.resetStream(this, code);
  }

  /** @internal */
  markClosed(aborted: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.aborted = aborted;
    if (this.pending.length > 0) this.pending.splice(0); // (setting length is a slow runtime call in V8)
    const listeners = this.closeListeners;
    this.closeListeners = [];
    for (const listener of listeners) listener();
  }
}

export class Http2ServerConnection {
  private readonly streams = new Map<number, Http2ServerStream>();
  private readonly decoder = new HpackDecoder();
  /** Streams with data queued because a window is exhausted, in the order they blocked. */
  private readonly blocked = new Set<Http2ServerStream>();
  private out: Buffer[] = [];
  private flushScheduled = false;
  private rest: Buffer | null = null;
  private prefaceReceived = false;
  private settingsReceived = false;
  private continuation: { streamId: number; fragments: Buffer[]; size: number; endStream: boolean } | null = null;
  private lastStreamId = 0;
  private goawaySent = false;
  private closing = false;
  private dead = false;
  private closeListeners: (() => void)[] = [];
  // The peer's settings and our send windows.
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerMaxFrameSize = DEFAULT_MAX_FRAME_SIZE;
  private connectionSendWindow = DEFAULT_WINDOW;
  // Our receive window for the connection and what was consumed since the last update.
  private connectionRecvWindow: number;
  private connectionRecvUnacknowledged = 0;

  constructor(
    private readonly socket: Socket,
    private readonly options: Http2ConnectionOptions,
  ) {
    this.connectionRecvWindow = options.connectionWindow;
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("error", () => socket.destroy()); // a client going away is not our failure
    socket.on("close", () => this.onSocketClosed());
    // Our connection preface: SETTINGS first, then a wider connection window.
    this.out.push(
      settingsFrame([
        [Setting.MAX_CONCURRENT_STREAMS, options.maxConcurrentStreams],
        [Setting.INITIAL_WINDOW_SIZE, options.streamWindow],
      ]),
    );
    if (options.connectionWindow > DEFAULT_WINDOW) this.out.push(windowUpdateFrame(0, options.connectionWindow - DEFAULT_WINDOW));
    this.flush();
  }

  /** Streams still open (answered streams leave as soon as both sides ended). */
  get openStreams(): number {
    return this.streams.size;
  }

  get isClosed(): boolean {
    return this.dead;
  }

  onClose(listener: () => void): void {
    if (this.dead) listener();
    else this.closeListeners.push(listener);
  }

  /** Graceful close: GOAWAY (no new streams), then the socket closes once open streams are done. */
  goAway(): void {
    if (this.dead) return;
    if (!this.goawaySent) {
      this.goawaySent = true;
      this.out.push(goawayFrame(this.lastStreamId, ErrorCode.NO_ERROR));
    }
    this.closing = true;
    this.flush();
    this.closeIfIdle();
  }

  /** Immediate close. */
  destroy(): void {
    this.socket.destroy();
    this.onSocketClosed();
  }

  // ---- input ----

  private receive(chunk: Buffer): void {
    if (this.dead) return;
    const input = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    try {
      let at = 0;
      if (!this.prefaceReceived) {
        const seen = Math.min(input.length, CLIENT_PREFACE.length);
        if (!input.subarray(0, seen).equals(CLIENT_PREFACE.subarray(0, seen))) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "bad client preface");
        if (seen < CLIENT_PREFACE.length) {
          this.rest = input;
          return;
        }
        this.prefaceReceived = true;
        at = CLIENT_PREFACE.length;
      }
      while (input.length - at >= FRAME_HEADER_BYTES) {
        const length = (input[at] << 16) | (input[at + 1] << 8) | input[at + 2];
        // We never announce a larger SETTINGS_MAX_FRAME_SIZE than the default.
        if (length > DEFAULT_MAX_FRAME_SIZE) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, "frame larger than SETTINGS_MAX_FRAME_SIZE");
        if (input.length - at - FRAME_HEADER_BYTES < length) break;
        const type = input[at + 3];
        const flags = input[at + 4];
        const streamId = input.readUInt32BE(at + 5) & MAX_WINDOW;
        const payload = input.subarray(at + FRAME_HEADER_BYTES, at + FRAME_HEADER_BYTES + length);
        at += FRAME_HEADER_BYTES + length;
        this.onFrame(type, flags, streamId, payload);
        if (this.dead) return;
      }
      if (at < input.length) this.rest = input.subarray(at);
    } catch (err) {
      if (err instanceof ConnectionError) return this.fail(err.code, err.message);
      // A bug of ours must not take the process down with it: this connection ends.
      return this.fail(ErrorCode.INTERNAL_ERROR, "internal error");
    }
    this.flush();
  }

  private onFrame(type: number, flags: number, streamId: number, payload: Buffer): void {
    if (!this.settingsReceived) {
      // The client preface is the magic string followed by a SETTINGS frame (RFC 9113 3.4).
      if (type !== FrameType.SETTINGS || flags & Flag.ACK) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "expected SETTINGS after the preface");
      this.settingsReceived = true;
    }
    if (this.continuation && type !== FrameType.CONTINUATION) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "expected CONTINUATION");
    switch (type) {
      case FrameType.DATA:
        return this.onDataFrame(flags, streamId, payload);
      case FrameType.HEADERS:
        return this.onHeadersFrame(flags, streamId, payload);
      case FrameType.CONTINUATION:
        return this.onContinuationFrame(flags, streamId, payload);
      case FrameType.PRIORITY:
        // Priorities are advice (deprecated in RFC 9113); only the frame's shape is checked.
        if (streamId === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "PRIORITY on stream 0");
        if (payload.length !== 5) this.streamError(streamId, ErrorCode.FRAME_SIZE_ERROR);
        return;
      case FrameType.RST_STREAM:
        return this.onRstStreamFrame(streamId, payload);
      case FrameType.SETTINGS:
        return this.onSettingsFrame(flags, streamId, payload);
      case FrameType.PUSH_PROMISE:
        throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "PUSH_PROMISE from a client");
      case FrameType.PING:
        if (streamId !== 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "PING on a stream");
        if (payload.length !== 8) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, "PING payload is not 8 bytes");
        if (!(flags & Flag.ACK)) this.out.push(frame(FrameType.PING, Flag.ACK, 0, payload));
        return;
      case FrameType.GOAWAY:
        if (streamId !== 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "GOAWAY on a stream");
        // The client opens no more streams and will close the connection itself.
        return;
      case FrameType.WINDOW_UPDATE:
        return this.onWindowUpdateFrame(streamId, payload);
      default:
        return; // unknown frame types are ignored (RFC 9113 4.1)
    }
  }

  private onSettingsFrame(flags: number, streamId: number, payload: Buffer): void {
    if (streamId !== 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "SETTINGS on a stream");
    if (flags & Flag.ACK) {
      if (payload.length !== 0) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, "SETTINGS ACK with a payload");
      return;
    }
    if (payload.length % 6 !== 0) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, "SETTINGS length not a multiple of 6");
    let windowGrew = false;
    for (let at = 0; at < payload.length; at += 6) {
      const id = payload.readUInt16BE(at);
      const value = payload.readUInt32BE(at + 2);
      if (id === Setting.ENABLE_PUSH && value > 1) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "bad ENABLE_PUSH");
      if (id === Setting.INITIAL_WINDOW_SIZE) {
        if (value > MAX_WINDOW) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, "INITIAL_WINDOW_SIZE too large");
        // A change applies to every open stream's window (RFC 9113 6.9.2).
        const delta = value - this.peerInitialWindow;
        this.peerInitialWindow = value;
        for (const stream of this.streams.values()) {
          stream.sendWindow += delta;
          if (stream.sendWindow > MAX_WINDOW) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, "stream window overflow");
        }
        if (delta > 0) windowGrew = true;
      }
      if (id === Setting.MAX_FRAME_SIZE) {
        if (value < DEFAULT_MAX_FRAME_SIZE || value > 0xffffff) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "bad MAX_FRAME_SIZE");
        this.peerMaxFrameSize = value;
      }
      // HEADER_TABLE_SIZE bounds an encoder's dynamic table; ours uses none. Others: advisory.
    }
    this.out.push(SETTINGS_ACK);
    if (windowGrew) this.flushBlocked();
  }

  private onWindowUpdateFrame(streamId: number, payload: Buffer): void {
    if (payload.length !== 4) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, "WINDOW_UPDATE length is not 4");
    const increment = payload.readUInt32BE(0) & MAX_WINDOW;
    if (streamId === 0) {
      if (increment === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE of 0");
      this.connectionSendWindow += increment;
      if (this.connectionSendWindow > MAX_WINDOW) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, "connection window overflow");
      this.flushBlocked();
      return;
    }
    const stream = this.streams.get(streamId);
    if (!stream) {
      if (streamId > this.lastStreamId) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE on an idle stream");
      return; // a closed stream: updates may still be in flight
    }
    if (increment === 0) return this.streamError(streamId, ErrorCode.PROTOCOL_ERROR);
    stream.sendWindow += increment;
    if (stream.sendWindow > MAX_WINDOW) return this.streamError(streamId, ErrorCode.FLOW_CONTROL_ERROR);
    this.flushStream(stream);
  }

  private onRstStreamFrame(streamId: number, payload: Buffer): void {
    if (payload.length !== 4) throw new ConnectionError(ErrorCode.FRAME_SIZE_ERROR, "RST_STREAM length is not 4");
    if (streamId === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "RST_STREAM on stream 0");
    if (streamId > this.lastStreamId) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "RST_STREAM on an idle stream");
    const stream = this.streams.get(streamId);
    if (stream) this.retire(stream, true);
  }

  private onDataFrame(flags: number, streamId: number, payload: Buffer): void {
    if (streamId === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "DATA on stream 0");
    let data = payload;
    if (flags & Flag.PADDED) {
      if (payload.length < 1 || payload[0] >= payload.length) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "padding exceeds the DATA payload");
      data = payload.subarray(1, payload.length - payload[0]);
    }
    // The whole payload, padding included, counts against the windows (RFC 9113 6.9.1).
    this.connectionRecvWindow -= payload.length;
    if (this.connectionRecvWindow < 0) throw new ConnectionError(ErrorCode.FLOW_CONTROL_ERROR, "connection window exceeded");
    // Everything received is consumed at once (buffered by the request's reader): give it back.
    this.connectionRecvUnacknowledged += payload.length;
    if (this.connectionRecvUnacknowledged >= this.options.connectionWindow / 2) {
      this.out.push(windowUpdateFrame(0, this.connectionRecvUnacknowledged));
      this.connectionRecvWindow += this.connectionRecvUnacknowledged;
      this.connectionRecvUnacknowledged = 0;
    }
    const stream = this.streams.get(streamId);
    if (!stream) {
      if (streamId > this.lastStreamId) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "DATA on an idle stream");
      return; // a stream we closed or reset: frames may still be in flight
    }
    if (stream.remoteEnded) return this.streamError(streamId, ErrorCode.STREAM_CLOSED);
    stream.recvWindow -= payload.length;
    if (stream.recvWindow < 0) return this.streamError(streamId, ErrorCode.FLOW_CONTROL_ERROR);
    if (data.length > 0) stream.onData?.(data);
    if (flags & Flag.END_STREAM) {
      this.remoteEnd(stream);
      return;
    }
    stream.recvUnacknowledged += payload.length;
    if (stream.recvUnacknowledged >= this.options.streamWindow / 2 && !stream.closed) {
      this.out.push(windowUpdateFrame(streamId, stream.recvUnacknowledged));
      stream.recvWindow += stream.recvUnacknowledged;
      stream.recvUnacknowledged = 0;
    }
  }

  private onHeadersFrame(flags: number, streamId: number, payload: Buffer): void {
    if (streamId === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "HEADERS on stream 0");
    let start = 0;
    let end = payload.length;
    if (flags & Flag.PADDED) {
      if (payload.length < 1) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "HEADERS padding without length");
      start = 1;
      end -= payload[0];
    }
    if (flags & Flag.PRIORITY) start += 5;
    if (start > end) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "padding exceeds the HEADERS payload");
    const fragment = payload.subarray(start, end);
    const endStream = (flags & Flag.END_STREAM) !== 0;
    if (flags & Flag.END_HEADERS) return this.onHeaderBlock(streamId, fragment, endStream);
    this.continuation = { streamId, fragments: [fragment], size: fragment.length, endStream };
  }

  private onContinuationFrame(flags: number, streamId: number, payload: Buffer): void {
    const pending = this.continuation;
    if (!pending || pending.streamId !== streamId) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "unexpected CONTINUATION");
    pending.fragments.push(payload);
    pending.size += payload.length;
    if (pending.size > MAX_HEADER_BLOCK_BYTES) throw new ConnectionError(ErrorCode.ENHANCE_YOUR_CALM, "header block too large");
    if (!(flags & Flag.END_HEADERS)) return;
    this.continuation = null;
    this.onHeaderBlock(streamId, Buffer.concat(pending.fragments, pending.size), pending.endStream);
  }

  private onHeaderBlock(streamId: number, block: Buffer, endStream: boolean): void {
    // Decoded whatever becomes of the stream: the HPACK table is shared by all blocks.
    let fields;
    try {
      fields = this.decoder.decode(block);
    } catch (err) {
      if (err instanceof HpackError) throw new ConnectionError(ErrorCode.COMPRESSION_ERROR, err.message);
      throw err;
    }
    const existing = this.streams.get(streamId);
    if (existing) {
      // Trailers of a request: they must end it. gRPC requests carry nothing we need there.
      if (existing.remoteEnded) return this.streamError(streamId, ErrorCode.STREAM_CLOSED);
      if (!endStream) return this.streamError(streamId, ErrorCode.PROTOCOL_ERROR);
      this.remoteEnd(existing);
      return;
    }
    if (streamId <= this.lastStreamId) return; // a stream already closed (or refused)
    if (streamId % 2 === 0) throw new ConnectionError(ErrorCode.PROTOCOL_ERROR, "client stream with an even id");
    this.lastStreamId = streamId;
    if (this.goawaySent || this.streams.size >= this.options.maxConcurrentStreams) {
      this.out.push(rstStreamFrame(streamId, ErrorCode.REFUSED_STREAM));
      return;
    }
    const headers = Object.create(null) as Record<string, string>;
    for (const [name, value] of fields) headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    const stream = new Http2ServerStream(this, streamId, headers, this.peerInitialWindow, this.options.streamWindow);
    this.streams.set(streamId, stream);
    this.options.onStream(stream);
    if (endStream) this.remoteEnd(stream);
  }

  private remoteEnd(stream: Http2ServerStream): void {
    if (stream.remoteEnded || stream.closed) return;
    stream.remoteEnded = true;
    stream.onEnd?.();
    if (stream.localEnded) this.retire(stream, false);
  }

  // ---- output ----

  /** @internal via Http2ServerStream.sendHeaders */
  sendHeaders(stream: Http2ServerStream, block: Buffer, endStream: boolean): void {
    pushHeaderFrames(this.out, stream.id, block, endStream, this.peerMaxFrameSize);
    if (endStream) {
      stream.endQueued = true;
      this.localEnd(stream);
    }
    this.scheduleFlush();
  }

  /** @internal Sends what the windows allow of a stream's queued data, then its end. */
  flushStream(stream: Http2ServerStream): void {
    if (stream.closed || this.dead) return;
    const pending = stream.pending;
    while (pending.length > 0) {
      const chunk = pending[0];
      const remaining = chunk.length - stream.pendingOffset;
      const size = Math.min(remaining, this.connectionSendWindow, stream.sendWindow, this.peerMaxFrameSize);
      if (size <= 0) {
        this.blocked.add(stream);
        this.scheduleFlush();
        return;
      }
      const last = stream.endQueued && stream.trailers === null && pending.length === 1 && size === remaining;
      const header = Buffer.allocUnsafe(FRAME_HEADER_BYTES);
      writeFrameHeader(header, 0, size, FrameType.DATA, last ? Flag.END_STREAM : 0, stream.id);
      this.out.push(header, chunk.subarray(stream.pendingOffset, stream.pendingOffset + size));
      this.connectionSendWindow -= size;
      stream.sendWindow -= size;
      stream.pendingOffset += size;
      if (stream.pendingOffset === chunk.length) {
        pending.shift();
        stream.pendingOffset = 0;
      }
      if (last) {
        this.blocked.delete(stream);
        this.localEnd(stream);
        this.scheduleFlush();
        return;
      }
    }
    this.blocked.delete(stream);
    if (stream.endQueued && !stream.localEnded) {
      if (stream.trailers) pushHeaderFrames(this.out, stream.id, stream.trailers, true, this.peerMaxFrameSize);
      else this.out.push(frame(FrameType.DATA, Flag.END_STREAM, stream.id, null));
      this.localEnd(stream);
    }
    this.scheduleFlush();
  }

  /** @internal via Http2ServerStream.reset */
  resetStream(stream: Http2ServerStream, code: number): void {
    this.out.push(rstStreamFrame(stream.id, code));
    this.retire(stream, true);
    this.scheduleFlush();
  }

  private localEnd(stream: Http2ServerStream): void {
    stream.localEnded = true;
    if (stream.remoteEnded) return this.retire(stream, false);
    // Our answer is complete before the request: ask the client to stop sending, without
    // error (RFC 9113 8.1); gRPC servers do the same.
    this.out.push(rstStreamFrame(stream.id, ErrorCode.NO_ERROR));
    this.retire(stream, false);
  }

  private streamError(streamId: number, code: number): void {
    this.out.push(rstStreamFrame(streamId, code));
    const stream = this.streams.get(streamId);
    if (stream) this.retire(stream, true);
  }

  private retire(stream: Http2ServerStream, aborted: boolean): void {
    this.streams.delete(stream.id);
    this.blocked.delete(stream);
    stream.markClosed(aborted);
    if (this.closing) this.closeIfIdle();
  }

  private flushBlocked(): void {
    for (const stream of [...this.blocked]) {
      if (this.connectionSendWindow <= 0) return;
      this.flushStream(stream);
    }
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Frames produced in the same tick (an answer's headers, data and trailers; answers
    // finishing together) leave in one write.
    queueMicrotask(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.out.length === 0) return;
    const data = this.out.length === 1 ? this.out[0] : Buffer.concat(this.out);
    this.out = [];
    if (!this.dead && this.socket.writable) this.socket.write(data);
    if (this.closing) this.closeIfIdle();
  }

  private closeIfIdle(): void {
    if (this.dead || this.streams.size > 0 || this.out.length > 0) return;
    this.endSocket();
  }

  /** A connection error: GOAWAY with the code, then the connection closes. */
  private fail(code: number, message: string): void {
    if (this.dead) return;
    this.out.push(goawayFrame(this.lastStreamId, code, message));
    this.goawaySent = true;
    this.flush();
    this.endSocket();
  }

  private endSocket(): void {
    if (this.dead) return;
    this.abortStreams();
    this.dead = true;
    // end() sends what is buffered, then FIN (and TLS close_notify); destroy once written
    // so a client that never closes its side cannot hold the connection.
    this.socket.end(() => this.socket.destroy());
  }

  private abortStreams(): void {
    const streams = [...this.streams.values()];
    this.streams.clear();
    this.blocked.clear();
    for (const stream of streams) stream.markClosed(true);
  }

  private onSocketClosed(): void {
    this.abortStreams();
    this.dead = true;
    const listeners = this.closeListeners;
    this.closeListeners = [];
    for (const listener of listeners) listener();
  }
}
