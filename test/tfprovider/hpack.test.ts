// HPACK decoding (RFC 7541) of request header blocks, checked against the RFC's own
// examples (Appendix C), and what a broken block does: an error, never a crash.
import { describe, expect, it } from "vitest";
import { decodeHuffman, HpackDecoder, HpackError } from "../../src/tfprovider/protocol/hpack-decoder";
import { HUFFMAN_CODE_LENGTHS, HUFFMAN_CODES } from "../../src/tfprovider/protocol/hpack-huffman-code";
import { encodeHeaderBlock } from "../../src/tfprovider/protocol/http2-frames";

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ""), "hex");

const FIRST = [
  [":method", "GET"],
  [":scheme", "http"],
  [":path", "/"],
  [":authority", "www.example.com"],
];
const SECOND = [...FIRST, ["cache-control", "no-cache"]];
const THIRD = [
  [":method", "GET"],
  [":scheme", "https"],
  [":path", "/index.html"],
  [":authority", "www.example.com"],
  ["custom-key", "custom-value"],
];

function decodeThree(blocks: string[]) {
  const decoder = new HpackDecoder();
  const out = blocks.map((block) => ({ fields: decoder.decode(hex(block)), size: decoder.tableSize }));
  return { decoder, out };
}

describe("HPACK decoder", () => {
  it("decodes the RFC 7541 C.3 requests (no Huffman) sharing one dynamic table", () => {
    const { decoder, out } = decodeThree([
      "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
      "8286 84be 5808 6e6f 2d63 6163 6865",
      "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
    ]);
    expect(out.map((o) => o.fields)).toEqual([FIRST, SECOND, THIRD]);
    expect(out.map((o) => o.size)).toEqual([57, 110, 164]);
    expect(decoder.table).toEqual([
      ["custom-key", "custom-value"],
      ["cache-control", "no-cache"],
      [":authority", "www.example.com"],
    ]);
  });

  it("decodes the RFC 7541 C.4 requests (Huffman) sharing one dynamic table", () => {
    const { out } = decodeThree([
      "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
      "8286 84be 5886 a8eb 1064 9cbf",
      "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
    ]);
    expect(out.map((o) => o.fields)).toEqual([FIRST, SECOND, THIRD]);
    expect(out.map((o) => o.size)).toEqual([57, 110, 164]);
  });

  it("evicts on a dynamic table size update, and an evicted index is then an error", () => {
    const decoder = new HpackDecoder();
    decoder.decode(hex("8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d"));
    expect(decoder.decode(hex("be"))).toEqual([[":authority", "www.example.com"]]);
    // Size update to 0 (001 00000), then an indexed static field.
    expect(decoder.decode(hex("20 82"))).toEqual([[":method", "GET"]]);
    expect(decoder.tableSize).toBe(0);
    expect(() => decoder.decode(hex("be"))).toThrow(HpackError);
  });

  it("evicts the oldest entries when an insertion overflows the table", () => {
    const decoder = new HpackDecoder();
    decoder.decode(hex("3f 9b 01")); // size update to 31 + 155 = 186: room for five 36-byte entries
    const literal = (name: string, value: string) => Buffer.concat([Buffer.from([0x40, name.length]), Buffer.from(name), Buffer.from([value.length]), Buffer.from(value)]);
    for (const n of ["a", "b", "c", "d"]) decoder.decode(literal(`k${n}`, `v${n}`)); // 36 bytes each
    decoder.decode(hex("20 3f 9b 01")); // shrink to 0, grow back: the table is empty
    expect(decoder.table).toEqual([]);
    for (const n of ["a", "b", "c", "d", "e", "f"]) decoder.decode(literal(`k${n}`, `v${n}`));
    expect(decoder.table.map(([name]) => name)).toEqual(["kf", "ke", "kd", "kc", "kb"]);
    expect(decoder.tableSize).toBe(5 * 36);
  });

  it("rejects broken blocks with an HpackError", () => {
    const decoder = () => new HpackDecoder();
    // Index 0 and an index past the tables.
    expect(() => decoder().decode(hex("80"))).toThrow(HpackError);
    expect(() => decoder().decode(hex("bf"))).toThrow(HpackError);
    // A size update above SETTINGS_HEADER_TABLE_SIZE (4096), and one after a field.
    expect(() => decoder().decode(hex("3f e2 1f"))).toThrow(HpackError);
    expect(() => decoder().decode(hex("82 20"))).toThrow(HpackError);
    // Truncated: a literal whose value length runs past the block; an unfinished integer.
    expect(() => decoder().decode(hex("40 01 61 05 62"))).toThrow(HpackError);
    expect(() => decoder().decode(hex("ff ff"))).toThrow(HpackError);
  });

  it("decodes every octet value from its Huffman code", () => {
    // Encode with the RFC's table (bits appended MSB first, padded with 1s), decode back.
    const encode = (octets: number[]): Buffer => {
      let bits = "";
      for (const o of octets) bits += HUFFMAN_CODES[o].toString(2).padStart(HUFFMAN_CODE_LENGTHS[o], "0");
      bits = bits.padEnd(Math.ceil(bits.length / 8) * 8, "1");
      return Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
    };
    const all = Array.from({ length: 256 }, (_, i) => (i * 97) % 256);
    const encoded = encode(all);
    expect(Buffer.from(decodeHuffman(encoded, 0, encoded.length), "latin1")).toEqual(Buffer.from(all));
    for (const text of ["", "a", "www.example.com", "/tfplugin6.Provider/PlanResourceChange", "application/grpc+proto"]) {
      const octets = [...Buffer.from(text, "latin1")];
      const bytes = encode(octets);
      expect(decodeHuffman(bytes, 0, bytes.length)).toBe(text);
    }
  });

  it("rejects bad Huffman padding and EOS inside a string", () => {
    // '0' is 00000: padding with zeros, not a prefix of EOS.
    expect(() => decodeHuffman(hex("00"), 0, 1)).toThrow(/padding/);
    // 'a' (00011) then 8+ one-bits of padding.
    expect(() => decodeHuffman(hex("1f ff"), 0, 2)).toThrow(/padding/);
    // EOS (30 ones) inside the string.
    expect(() => decodeHuffman(hex("ff ff ff ff"), 0, 4)).toThrow(/EOS/);
    expect(decodeHuffman(hex("1f"), 0, 1)).toBe("a");
    expect(() => new HpackDecoder().decode(hex("40 81 00 81 1f"))).toThrow(HpackError);
  });

  it("reads back the header blocks our answers are encoded with", () => {
    const headers: [string, string][] = [
      [":status", "200"],
      ["content-type", "application/grpc+proto"],
      ["grpc-status", "13"],
      ["grpc-message", "x".repeat(200)],
    ];
    expect(new HpackDecoder().decode(encodeHeaderBlock(headers))).toEqual(headers);
  });
});
