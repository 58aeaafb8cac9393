// HTTP/2 framing (RFC 9113): the constants and frame builders the plugin server needs, and
// the encoding of the few header blocks it sends.
//
// Our header blocks use only the static table and literals "without indexing" with plain
// (not Huffman) strings: the client's decoder then never holds state of ours, so each block
// can be encoded once and re-sent as is.
import { staticNameIndex } from "./hpack-decoder";

export const CLIENT_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
export const FRAME_HEADER_BYTES = 9;

export const FrameType = {
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9,
} as const;

export const Flag = {
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20,
} as const;

export const Setting = {
  HEADER_TABLE_SIZE: 0x1,
  ENABLE_PUSH: 0x2,
  MAX_CONCURRENT_STREAMS: 0x3,
  INITIAL_WINDOW_SIZE: 0x4,
  MAX_FRAME_SIZE: 0x5,
  MAX_HEADER_LIST_SIZE: 0x6,
} as const;

export const ErrorCode = {
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  INTERNAL_ERROR: 0x2,
  FLOW_CONTROL_ERROR: 0x3,
  SETTINGS_TIMEOUT: 0x4,
  STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
  ENHANCE_YOUR_CALM: 0xb,
} as const;

/** The protocol's defaults before any SETTINGS (RFC 9113 6.5.2). */
export const DEFAULT_WINDOW = 65_535;
export const DEFAULT_MAX_FRAME_SIZE = 16_384;
export const MAX_WINDOW = 2 ** 31 - 1;

/** A frame header followed by its payload, as one buffer. */
export function frame(type: number, flags: number, streamId: number, payload: Buffer | null): Buffer {
  const length = payload ? payload.length : 0;
  const out = Buffer.allocUnsafe(FRAME_HEADER_BYTES + length);
  writeFrameHeader(out, 0, length, type, flags, streamId);
  if (payload) payload.copy(out, FRAME_HEADER_BYTES);
  return out;
}

export function writeFrameHeader(out: Buffer, at: number, length: number, type: number, flags: number, streamId: number): void {
  out[at] = length >>> 16;
  out[at + 1] = (length >>> 8) & 0xff;
  out[at + 2] = length & 0xff;
  out[at + 3] = type;
  out[at + 4] = flags;
  out.writeUInt32BE(streamId & MAX_WINDOW, at + 5);
}

export function settingsFrame(values: ReadonlyArray<readonly [id: number, value: number]>): Buffer {
  const payload = Buffer.allocUnsafe(6 * values.length);
  values.forEach(([id, value], i) => {
    payload.writeUInt16BE(id, 6 * i);
    payload.writeUInt32BE(value, 6 * i + 2);
  });
  return frame(FrameType.SETTINGS, 0, 0, payload);
}

export const SETTINGS_ACK = frame(FrameType.SETTINGS, Flag.ACK, 0, null);

export function windowUpdateFrame(streamId: number, increment: number): Buffer {
  const payload = Buffer.allocUnsafe(4);
  payload.writeUInt32BE(increment, 0);
  return frame(FrameType.WINDOW_UPDATE, 0, streamId, payload);
}

export function rstStreamFrame(streamId: number, code: number): Buffer {
  const payload = Buffer.allocUnsafe(4);
  payload.writeUInt32BE(code, 0);
  return frame(FrameType.RST_STREAM, 0, streamId, payload);
}

export function goawayFrame(lastStreamId: number, code: number, debug = ""): Buffer {
  const text = Buffer.from(debug, "utf8");
  const payload = Buffer.allocUnsafe(8 + text.length);
  payload.writeUInt32BE(lastStreamId, 0);
  payload.writeUInt32BE(code, 4);
  text.copy(payload, 8);
  return frame(FrameType.GOAWAY, 0, 0, payload);
}

/**
 * A header block as HEADERS plus as many CONTINUATION frames as the peer's frame size needs,
 * into `out`. END_STREAM goes on the HEADERS frame (RFC 9113 6.2), END_HEADERS on the last.
 */
export function pushHeaderFrames(out: Buffer[], streamId: number, block: Buffer, endStream: boolean, maxFrameSize: number): void {
  const endStreamFlag = endStream ? Flag.END_STREAM : 0;
  if (block.length <= maxFrameSize) {
    out.push(frame(FrameType.HEADERS, endStreamFlag | Flag.END_HEADERS, streamId, block));
    return;
  }
  for (let at = 0; at < block.length; at += maxFrameSize) {
    const end = Math.min(at + maxFrameSize, block.length);
    const last = end === block.length;
    const type = at === 0 ? FrameType.HEADERS : FrameType.CONTINUATION;
    const flags = (at === 0 ? endStreamFlag : 0) | (last ? Flag.END_HEADERS : 0);
    out.push(frame(type, flags, streamId, block.subarray(at, end)));
  }
}

// ---- HPACK encoding of our answers (RFC 7541): no dynamic table, no Huffman. ----

function hpackInteger(value: number, prefixBits: number, firstByteHigh: number): number[] {
  const max = (1 << prefixBits) - 1;
  if (value < max) return [firstByteHigh | value];
  const bytes = [firstByteHigh | max];
  let rest = value - max;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

function hpackString(text: string): Buffer {
  const bytes = Buffer.from(text, "latin1");
  return Buffer.concat([Buffer.from(hpackInteger(bytes.length, 7, 0x00)), bytes]);
}

/** One header as a literal without indexing; the name indexed when the static table has it. */
export function encodeLiteralHeader(name: string, value: string): Buffer {
  const index = staticNameIndex(name);
  const head = Buffer.from(hpackInteger(index, 4, 0x00));
  return index > 0 ? Buffer.concat([head, hpackString(value)]) : Buffer.concat([head, hpackString(name), hpackString(value)]);
}

/** A whole header block from name/value pairs (header values must be ASCII, as in gRPC). */
export function encodeHeaderBlock(headers: ReadonlyArray<readonly [string, string]>): Buffer {
  return Buffer.concat(headers.map(([name, value]) => encodeLiteralHeader(name, value)));
}
