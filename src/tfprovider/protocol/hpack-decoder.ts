// HPACK (RFC 7541) decoding of the request header blocks a gRPC client sends.
//
// One decoder per connection: the dynamic table is connection state shared by every header
// block the client sends, so every block must be decoded, in order, even those of streams
// we refuse. Our answers never use the dynamic table (see http2-frames.ts), so the server
// needs no encoder state at all.
import { HUFFMAN_CODE_LENGTHS, HUFFMAN_CODES } from "./hpack-huffman-code";

/** A header block that cannot be decoded: a connection error (COMPRESSION_ERROR) in HTTP/2. */
export class HpackError extends Error {}

export type HeaderField = readonly [name: string, value: string];

/** RFC 7541 Appendix A. Index 1 is the first entry. */
const STATIC_TABLE: readonly HeaderField[] = [
  [":authority", ""],
  [":method", "GET"],
  [":method", "POST"],
  [":path", "/"],
  [":path", "/index.html"],
  [":scheme", "http"],
  [":scheme", "https"],
  [":status", "200"],
  [":status", "204"],
  [":status", "206"],
  [":status", "304"],
  [":status", "400"],
  [":status", "404"],
  [":status", "500"],
  ["accept-charset", ""],
  ["accept-encoding", "gzip, deflate"],
  ["accept-language", ""],
  ["accept-ranges", ""],
  ["accept", ""],
  ["access-control-allow-origin", ""],
  ["age", ""],
  ["allow", ""],
  ["authorization", ""],
  ["cache-control", ""],
  ["content-disposition", ""],
  ["content-encoding", ""],
  ["content-language", ""],
  ["content-length", ""],
  ["content-location", ""],
  ["content-range", ""],
  ["content-type", ""],
  ["cookie", ""],
  ["date", ""],
  ["etag", ""],
  ["expect", ""],
  ["expires", ""],
  ["from", ""],
  ["host", ""],
  ["if-match", ""],
  ["if-modified-since", ""],
  ["if-none-match", ""],
  ["if-range", ""],
  ["if-unmodified-since", ""],
  ["last-modified", ""],
  ["link", ""],
  ["location", ""],
  ["max-forwards", ""],
  ["proxy-authenticate", ""],
  ["proxy-authorization", ""],
  ["range", ""],
  ["referer", ""],
  ["refresh", ""],
  ["retry-after", ""],
  ["server", ""],
  ["set-cookie", ""],
  ["strict-transport-security", ""],
  ["transfer-encoding", ""],
  ["user-agent", ""],
  ["vary", ""],
  ["via", ""],
  ["www-authenticate", ""],
];

/** Static table index (1-based) of a header name, 0 when absent: encoders index names they can. */
export function staticNameIndex(name: string): number {
  return STATIC_TABLE.findIndex(([n]) => n === name) + 1;
}

// Huffman decoding four bits at a time. The code (RFC 7541 Appendix B) is first built as a
// binary tree: 256 internal nodes, node 0 the root, leaves the 257 symbols. Then, for each
// internal node and each 4-bit input, one table entry: the node reached after those bits
// and the symbol completed on the way, if any (codes are at least 5 bits long, so at most
// one). grpc-go and nghttp2 send every new header string Huffman-coded; walking bit by bit
// showed up in profiles of the provider.
const EOS = 256;
const NO_SYMBOL = -1;
const HUFFMAN_DECODE = (() => {
  const children = new Int32Array(2 * 256).fill(0); // > 0 internal node, < 0 leaf -(symbol + 1)
  let nodes = 1;
  for (let symbol = 0; symbol < HUFFMAN_CODES.length; symbol++) {
    const code = HUFFMAN_CODES[symbol];
    let node = 0;
    for (let bit = HUFFMAN_CODE_LENGTHS[symbol] - 1; bit > 0; bit--) {
      const slot = 2 * node + ((code >>> bit) & 1);
      if (children[slot] === 0) children[slot] = nodes++;
      node = children[slot];
    }
    children[2 * node + (code & 1)] = -(symbol + 1);
  }
  const next = new Int16Array(nodes * 16);
  const emitted = new Int16Array(nodes * 16);
  for (let from = 0; from < nodes; from++) {
    for (let nibble = 0; nibble < 16; nibble++) {
      let node = from;
      let symbol = NO_SYMBOL;
      for (let bit = 3; bit >= 0; bit--) {
        const child = children[2 * node + ((nibble >>> bit) & 1)];
        if (child < 0) {
          symbol = -child - 1;
          node = 0;
        } else {
          node = child;
        }
      }
      next[from * 16 + nibble] = node;
      emitted[from * 16 + nibble] = symbol;
    }
  }
  // Where a string may end: after whole symbols plus at most 7 padding bits, all 1s (a
  // prefix of EOS), that is the root or one of the nodes 1 to 7 one-bits below it.
  const mayEnd = new Uint8Array(nodes);
  for (let node = 0, ones = 0; ones <= 7; ones++, node = children[2 * node + 1]) mayEnd[node] = 1;
  return { next, emitted, mayEnd };
})();

/** Decodes a Huffman-coded string (RFC 7541 5.2); latin1 keeps one char per octet. */
export function decodeHuffman(bytes: Buffer, start: number, end: number): string {
  const { next, emitted, mayEnd } = HUFFMAN_DECODE;
  // Each octet yields at most two symbols (codes are at least 5 bits).
  const out = Buffer.allocUnsafe(2 * (end - start));
  let length = 0;
  let node = 0;
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    for (let shift = 4; shift >= 0; shift -= 4) {
      const at = node * 16 + ((byte >>> shift) & 0xf);
      const symbol = emitted[at];
      if (symbol !== NO_SYMBOL) {
        if (symbol === EOS) throw new HpackError("Huffman string contains EOS");
        out[length++] = symbol;
      }
      node = next[at];
    }
  }
  if (!mayEnd[node]) throw new HpackError("Huffman padding is longer than 7 bits or not a prefix of EOS");
  return out.toString("latin1", 0, length);
}

// Header strings are octets; names and values of gRPC requests are ASCII. Octet length is
// what counts toward the table size (RFC 7541 4.1), so one char per octet throughout.
function octets(s: string): number {
  return s.length;
}

/** A header block can declare huge lengths; nothing a client sends us is near this. */
const MAX_STRING_OCTETS = 64 * 1024;

export class HpackDecoder {
  // Newest entry last; the dynamic part of the index space counts from the newest.
  private readonly dynamic: HeaderField[] = [];
  private dynamicSize = 0;
  private maxSize: number;

  /** settingsMaxSize: our SETTINGS_HEADER_TABLE_SIZE, the bound for size updates. */
  constructor(private readonly settingsMaxSize = 4096) {
    this.maxSize = settingsMaxSize;
  }

  /** The decoded fields of one complete header block, in order. */
  decode(block: Buffer): HeaderField[] {
    const fields: HeaderField[] = [];
    let at = 0;
    const integer = (prefixBits: number): number => {
      if (at >= block.length) throw new HpackError("truncated header block");
      const mask = (1 << prefixBits) - 1;
      let value = block[at++] & mask;
      if (value < mask) return value;
      for (let shift = 0; ; shift += 7) {
        if (at >= block.length) throw new HpackError("truncated integer");
        if (shift > 28) throw new HpackError("integer too large");
        const byte = block[at++];
        value += (byte & 0x7f) * 2 ** shift;
        if ((byte & 0x80) === 0) return value;
      }
    };
    const string = (): string => {
      if (at >= block.length) throw new HpackError("truncated header block");
      const huffman = (block[at] & 0x80) !== 0;
      const length = integer(7);
      if (length > MAX_STRING_OCTETS) throw new HpackError("header string too long");
      if (at + length > block.length) throw new HpackError("truncated string");
      const start = at;
      at += length;
      return huffman ? decodeHuffman(block, start, at) : block.toString("latin1", start, at);
    };
    while (at < block.length) {
      const first = block[at];
      if (first & 0x80) {
        // Indexed header field (6.1).
        fields.push(this.entry(integer(7)));
      } else if (first & 0x40) {
        // Literal with incremental indexing (6.2.1).
        const index = integer(6);
        const name = index === 0 ? string() : this.entry(index)[0];
        const field: HeaderField = [name, string()];
        this.insert(field);
        fields.push(field);
      } else if (first & 0x20) {
        // Dynamic table size update (6.3): only before the first field of a block.
        if (fields.length > 0) throw new HpackError("table size update after a header field");
        const size = integer(5);
        if (size > this.settingsMaxSize) throw new HpackError(`table size update ${size} above the limit ${this.settingsMaxSize}`);
        this.maxSize = size;
        this.evictTo(size);
      } else {
        // Literal without indexing (0000) or never indexed (0001) (6.2.2, 6.2.3).
        const index = integer(4);
        const name = index === 0 ? string() : this.entry(index)[0];
        fields.push([name, string()]);
      }
    }
    return fields;
  }

  /** The dynamic table, newest first (for tests and diagnostics). */
  get table(): readonly HeaderField[] {
    return [...this.dynamic].reverse();
  }

  get tableSize(): number {
    return this.dynamicSize;
  }

  private entry(index: number): HeaderField {
    if (index === 0) throw new HpackError("header index 0");
    if (index <= STATIC_TABLE.length) return STATIC_TABLE[index - 1];
    const back = index - STATIC_TABLE.length;
    if (back > this.dynamic.length) throw new HpackError(`header index ${index} beyond the table`);
    return this.dynamic[this.dynamic.length - back];
  }

  private insert(field: HeaderField): void {
    const size = octets(field[0]) + octets(field[1]) + 32;
    // An entry larger than the table empties it and is not added (4.4).
    this.evictTo(this.maxSize - size);
    if (size <= this.maxSize) {
      this.dynamic.push(field);
      this.dynamicSize += size;
    }
  }

  private evictTo(limit: number): void {
    while (this.dynamicSize > Math.max(limit, 0) && this.dynamic.length > 0) {
      const [name, value] = this.dynamic.shift()!;
      this.dynamicSize -= octets(name) + octets(value) + 32;
    }
  }
}
