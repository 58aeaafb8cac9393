// A small protobuf (proto3) codec driven by the precompiled descriptor of the plugin
// protocol (descriptor.ts, generated from proto/*.proto). It replaces protobufjs and
// @grpc/proto-loader at run time: loading and parsing those cost ~0.5 s of every
// provider start, and Terraform starts the provider 3-4 times per command.
//
// Messages are plain objects shaped the way the rest of the provider expects (as
// proto-loader presented them with keepCase, longs as Number, enums as String,
// defaults on, oneofs on):
//   - field names as in the .proto; int64 as number; enums as their names; bytes as Buffer;
//   - decoding fills absent fields with defaults ("" , 0, false, empty Buffer, [], {},
//     null for messages, the enum's zero name), except oneof and proto3 `optional`
//     members, which stay absent unless present (a oneof's name holds the member set);
//   - encoding skips null/undefined, proto3 default values of fields without presence,
//     and fields the message does not declare.

export interface FieldSpec {
  readonly name: string;
  readonly id: number;
  /** A scalar type name, "message:FULL.NAME" or "enum:FULL.NAME". */
  readonly type: string;
  readonly repeated?: boolean;
  /** Set for map fields: the key's scalar type (the value's is `type`). */
  readonly keyType?: string;
  readonly oneof?: string;
  /** proto3 `optional`: has presence, no default. */
  readonly optional?: boolean;
}

export interface MethodSpec {
  readonly request: string;
  readonly response: string;
  readonly responseStream?: boolean;
}

export interface ProtocolDescriptor {
  readonly messages: Readonly<Record<string, readonly FieldSpec[]>>;
  readonly enums: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly services: Readonly<Record<string, Readonly<Record<string, MethodSpec>>>>;
}

export type ProtoMessage = Record<string, unknown>;

/** An encoded message kept for re-sending as is (see Codec.preEncoded). */
export class PreEncoded {
  constructor(readonly bytes: Buffer) {}
}

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_BYTES = 2;
const WIRE_FIXED32 = 5;

const VARINT_TYPES = new Set(["int64", "uint64", "int32", "uint32", "bool", "sint32", "sint64"]);
const EMPTY = Buffer.alloc(0);

// ------------------------------------------------------------------ writer

class Writer {
  private buf = Buffer.allocUnsafe(256);
  private pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  varint(v: number): void {
    this.ensure(10);
    if (v >= 0 && v <= 0x7fffffff) {
      while (v > 0x7f) {
        this.buf[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      this.buf[this.pos++] = v;
      return;
    }
    // Negative or beyond 31 bits: 64-bit two's complement.
    let b = BigInt.asUintN(64, BigInt(Math.trunc(v)));
    while (b > 0x7fn) {
      this.buf[this.pos++] = Number(b & 0x7fn) | 0x80;
      b >>= 7n;
    }
    this.buf[this.pos++] = Number(b);
  }

  tag(id: number, wire: number): void {
    this.varint((id << 3) | wire);
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  double(v: number): void {
    this.ensure(8);
    this.pos = this.buf.writeDoubleLE(v, this.pos);
  }

  float(v: number): void {
    this.ensure(4);
    this.pos = this.buf.writeFloatLE(v, this.pos);
  }

  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }
}

// ------------------------------------------------------------------ reader

class Reader {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.end) throw new Error("truncated varint");
      const byte = this.buf[this.pos++];
      result += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return result;
      shift += 7;
    }
    // Longer than 49 bits: finish in BigInt, read as a signed 64-bit value.
    let big = BigInt(result);
    for (let s = 49n; ; s += 7n) {
      if (this.pos >= this.end || s > 63n) throw new Error("malformed varint");
      const byte = this.buf[this.pos++];
      big |= BigInt(byte & 0x7f) << s;
      if (byte < 0x80) break;
    }
    return Number(BigInt.asIntN(64, big));
  }

  length(): number {
    const n = this.varint();
    if (this.pos + n > this.end) throw new Error("truncated field");
    return n;
  }

  skip(wire: number): void {
    if (wire === WIRE_VARINT) this.varint();
    else if (wire === WIRE_FIXED64) this.pos += 8;
    else if (wire === WIRE_BYTES) {
      const n = this.length(); // read before the addition: length() moves pos
      this.pos += n;
    }
    else if (wire === WIRE_FIXED32) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

// ------------------------------------------------------------------ codec

interface CompiledField extends FieldSpec {
  readonly kind: "scalar" | "message" | "enum";
  /** Message or enum full name. */
  readonly ref: string;
  readonly hasPresence: boolean;
}

export class Codec {
  private readonly fields = new Map<string, CompiledField[]>();
  private readonly byId = new Map<string, Map<number, CompiledField>>();
  private readonly enumNames = new Map<string, Map<number, string>>();

  constructor(readonly descriptor: ProtocolDescriptor) {}

  private compiled(type: string): CompiledField[] {
    let list = this.fields.get(type);
    if (list) return list;
    const specs = this.descriptor.messages[type];
    if (!specs) throw new Error(`unknown protocol message ${type}`);
    list = specs.map((f) => {
      const [kind, ref] = f.type.startsWith("message:") ? (["message", f.type.slice(8)] as const) : f.type.startsWith("enum:") ? (["enum", f.type.slice(5)] as const) : (["scalar", f.type] as const);
      return { ...f, kind, ref, hasPresence: f.oneof !== undefined || f.optional === true };
    });
    this.fields.set(type, list);
    this.byId.set(type, new Map(list.map((f) => [f.id, f])));
    return list;
  }

  private enumValue(ref: string, v: unknown): number {
    if (typeof v === "number") return v;
    const n = this.descriptor.enums[ref]?.[String(v)];
    if (n === undefined) throw new Error(`${JSON.stringify(v)} is not a value of ${ref}`);
    return n;
  }

  private enumName(ref: string, n: number): string | number {
    let names = this.enumNames.get(ref);
    if (!names) {
      names = new Map(Object.entries(this.descriptor.enums[ref] ?? {}).map(([k, v]) => [v, k]));
      this.enumNames.set(ref, names);
    }
    return names.get(n) ?? n;
  }

  /** Encodes a message object; a PreEncoded value passes through as its bytes. */
  encode(type: string, message: ProtoMessage | PreEncoded): Buffer {
    if (message instanceof PreEncoded) return message.bytes;
    const w = new Writer();
    this.writeMessage(w, type, message);
    return w.finish();
  }

  /** Encodes once, for answers that never change (the schema). */
  preEncoded(type: string, message: ProtoMessage): PreEncoded {
    return new PreEncoded(this.encode(type, message));
  }

  private writeMessage(w: Writer, type: string, message: ProtoMessage): void {
    for (const f of this.compiled(type)) {
      const v = message[f.name];
      if (v === undefined || v === null) continue;
      if (f.keyType) {
        for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
          if (item === undefined || item === null) continue;
          const entry = new Writer();
          this.writeValue(entry, 1, f.keyType, "scalar", f.keyType, k, true);
          this.writeValue(entry, 2, f.type, f.kind, f.ref, item, true);
          w.tag(f.id, WIRE_BYTES);
          w.bytes(entry.finish());
        }
      } else if (f.repeated) {
        const items = v as unknown[];
        if (items.length === 0) continue;
        if (f.kind === "enum" || (f.kind === "scalar" && f.ref !== "string" && f.ref !== "bytes")) {
          const packed = new Writer();
          for (const item of items) this.writeScalarBody(packed, f.kind === "enum" ? "int32" : f.ref, f.kind === "enum" ? this.enumValue(f.ref, item) : item);
          w.tag(f.id, WIRE_BYTES);
          w.bytes(packed.finish());
        } else {
          for (const item of items) this.writeValue(w, f.id, f.type, f.kind, f.ref, item, true);
        }
      } else {
        this.writeValue(w, f.id, f.type, f.kind, f.ref, v, f.hasPresence);
      }
    }
  }

  private writeValue(w: Writer, id: number, _type: string, kind: CompiledField["kind"], ref: string, v: unknown, always: boolean): void {
    if (kind === "message") {
      const inner = new Writer();
      this.writeMessage(inner, ref, v as ProtoMessage);
      w.tag(id, WIRE_BYTES);
      w.bytes(inner.finish());
      return;
    }
    if (kind === "enum") {
      const n = this.enumValue(ref, v);
      if (n === 0 && !always) return;
      w.tag(id, WIRE_VARINT);
      w.varint(n);
      return;
    }
    if (!always && isDefault(ref, v)) return;
    if (ref === "string" || ref === "bytes") {
      w.tag(id, WIRE_BYTES);
      w.bytes(ref === "string" ? Buffer.from(String(v), "utf8") : (v as Uint8Array));
    } else if (ref === "double") {
      w.tag(id, WIRE_FIXED64);
      w.double(Number(v));
    } else if (ref === "float") {
      w.tag(id, WIRE_FIXED32);
      w.float(Number(v));
    } else if (VARINT_TYPES.has(ref)) {
      w.tag(id, WIRE_VARINT);
      this.writeScalarBody(w, ref, v);
    } else {
      throw new Error(`unsupported protocol field type ${ref}`);
    }
  }

  private writeScalarBody(w: Writer, ref: string, v: unknown): void {
    if (ref === "bool") w.varint(v ? 1 : 0);
    else if (ref === "double") w.double(Number(v));
    else if (ref === "float") w.float(Number(v));
    else if (ref === "sint32" || ref === "sint64") {
      const n = Number(v);
      w.varint(n >= 0 ? n * 2 : -n * 2 - 1);
    } else w.varint(Number(v));
  }

  decode(type: string, buf: Buffer): ProtoMessage {
    return this.readMessage(new Reader(buf, 0, buf.length), type);
  }

  private readMessage(r: Reader, type: string): ProtoMessage {
    const fields = this.compiled(type);
    const byId = this.byId.get(type)!;
    const out: ProtoMessage = {};
    for (const f of fields) {
      if (f.hasPresence) continue;
      if (f.keyType) out[f.name] = {};
      else if (f.repeated) out[f.name] = [];
      else out[f.name] = this.defaultOf(f);
    }
    while (r.pos < r.end) {
      const key = r.varint();
      const id = Math.floor(key / 8);
      const wire = key & 7;
      const f = byId.get(id);
      if (!f) {
        r.skip(wire);
        continue;
      }
      if (f.keyType) {
        const len = r.length();
        const entry = new Reader(r.buf, r.pos, r.pos + len);
        r.pos += len;
        let k: unknown = defaultScalar(f.keyType);
        let v: unknown = f.kind === "message" ? null : this.defaultOf(f);
        while (entry.pos < entry.end) {
          const ek = entry.varint();
          if (ek >> 3 === 1) k = this.readValue(entry, f.keyType, "scalar", f.keyType);
          else if (ek >> 3 === 2) v = this.readValue(entry, f.type, f.kind, f.ref);
          else entry.skip(ek & 7);
        }
        setKey(out[f.name] as Record<string, unknown>, String(k), v);
      } else if (f.repeated) {
        const list = out[f.name] as unknown[];
        if (wire === WIRE_BYTES && f.kind !== "message" && f.ref !== "string" && f.ref !== "bytes") {
          const len = r.length();
          const packed = new Reader(r.buf, r.pos, r.pos + len);
          r.pos += len;
          while (packed.pos < packed.end) list.push(this.readValue(packed, f.type, f.kind, f.ref));
        } else list.push(this.readValue(r, f.type, f.kind, f.ref));
      } else {
        out[f.name] = this.readValue(r, f.type, f.kind, f.ref);
        if (f.oneof) out[f.oneof] = f.name;
      }
    }
    return out;
  }

  private readValue(r: Reader, _type: string, kind: CompiledField["kind"], ref: string): unknown {
    if (kind === "message") {
      const len = r.length();
      const inner = new Reader(r.buf, r.pos, r.pos + len);
      r.pos += len;
      return this.readMessage(inner, ref);
    }
    if (kind === "enum") return this.enumName(ref, r.varint());
    switch (ref) {
      case "string": {
        const len = r.length();
        const s = r.buf.toString("utf8", r.pos, r.pos + len);
        r.pos += len;
        return s;
      }
      case "bytes": {
        const len = r.length();
        // A copy: the request buffer is grpc's and may be reused.
        const b = Buffer.from(r.buf.subarray(r.pos, r.pos + len));
        r.pos += len;
        return b;
      }
      case "bool":
        return r.varint() !== 0;
      case "double": {
        const v = r.buf.readDoubleLE(r.pos);
        r.pos += 8;
        return v;
      }
      case "float": {
        const v = r.buf.readFloatLE(r.pos);
        r.pos += 4;
        return v;
      }
      case "sint32":
      case "sint64": {
        const n = r.varint();
        return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
      }
      case "uint32":
        return r.varint() >>> 0;
      case "int32":
        return r.varint() | 0;
      default:
        return r.varint();
    }
  }

  private defaultOf(f: CompiledField): unknown {
    if (f.kind === "message") return null;
    if (f.kind === "enum") return this.enumName(f.ref, 0);
    return defaultScalar(f.ref);
  }
}

function defaultScalar(ref: string): unknown {
  if (ref === "string") return "";
  if (ref === "bytes") return EMPTY;
  if (ref === "bool") return false;
  return 0;
}

function isDefault(ref: string, v: unknown): boolean {
  if (ref === "string") return v === "";
  if (ref === "bytes") return (v as Uint8Array).length === 0;
  if (ref === "bool") return v === false;
  return Number(v) === 0;
}

/** Sets a key without letting "__proto__" (a legal map key) reach the prototype. */
function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
