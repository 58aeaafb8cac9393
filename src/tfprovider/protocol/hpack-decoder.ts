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

// The Huffman code as a binary tree in one flat array: node i has children at
// tree[2i] (bit 0) and tree[2i+1] (bit 1); a child >= 0 is another node, a child < 0 is the
// leaf of symbol -(child + 1), 0 an absent branch (node 0 is the root, never a child).
// Built once from the RFC's code table; decoding walks it bit by bit, which is plenty for
// the few short strings of a request (and grpc-go indexes repeated ones after the first).
const HUFFMAN_TREE: Int32Array = (() => {
  const tree = new Int32Array(2 * 512);
  let nodes = 1;
  for (let symbol = 0; symbol < HUFFMAN_CODES.length; symbol++) {
    const code = HUFFMAN_CODES[symbol];
    const length = HUFFMAN_CODE_LENGTHS[symbol];
    let node = 0;
    for (let bit = length - 1; bit > 0; bit--) {
      const slot = 2 * node + ((code >>> bit) & 1);
      if (tree[slot] === 0) tree[slot] = nodes++;
      node = tree[slot];
    }
    tree[2 * node + (code & 1)] = -(symbol + 1);
  }
  return tree;
})();
const EOS = 256;

/** Decodes a Huffman-coded string (RFC 7541 5.2); latin1 keeps one char per octet. */
export function decodeHuffman(bytes: Buffer, start: number, end: number): string {
  const out: number[] = [];
  let node = 0;
  // Bits read since the last whole symbol, and whether they were all 1s: what is left at
  // the end must be padding, a prefix of EOS (all 1s) shorter than 8 bits.
  let pendingBits = 0;
  let pendingAllOnes = true;
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    for (let bit = 7; bit >= 0; bit--) {
      const b = (byte >>> bit) & 1;
      const next = HUFFMAN_TREE[2 * node + b];
      pendingBits++;
      if (b === 0) pendingAllOnes = false;
      if (next < 0) {
        const symbol = -next - 1;
        if (symbol === EOS) throw new HpackError("Huffman string contains EOS");
        out.push(symbol);
        node = 0;
        pendingBits = 0;
        pendingAllOnes = true;
      } else if (next === 0) {
        throw new HpackError("invalid Huffman code");
      } else {
        node = next;
      }
    }
  }
  if (pendingBits > 7) throw new HpackError("Huffman padding longer than 7 bits");
  if (!pendingAllOnes) throw new HpackError("Huffman padding is not a prefix of EOS");
  return Buffer.from(out).toString("latin1");
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
