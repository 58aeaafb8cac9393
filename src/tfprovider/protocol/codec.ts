// The plugin protocol's messages, encoded and decoded by the code protobufjs's generator
// wrote from proto/*.proto (generated/messages.ts; scripts/generate-protocol.js).
//
// The rest of the provider sees messages as plain objects: field names as in the .proto,
// int64 as number, enums as their names, bytes as Buffer, absent fields as their defaults
// (null for messages), oneof and proto3 `optional` members absent unless set, and a
// oneof's name holding the member that is set (protobufjs's toObject with these options).
import * as generated from "./generated/messages";

export type ProtoMessage = Record<string, unknown>;

/** An encoded message kept for re-sending as is (see Codec.preEncoded). */
export class PreEncoded {
  constructor(readonly bytes: Buffer) {}
}

/** What pbjs's static code offers per message type. */
interface GeneratedType {
  encode(message: unknown): { finish(): Uint8Array };
  decode(bytes: Uint8Array): unknown;
  fromObject(object: ProtoMessage): unknown;
  toObject(message: unknown, options: Readonly<Record<string, unknown>>): ProtoMessage;
}

const TO_OBJECT = { longs: Number, enums: String, defaults: true, oneofs: true } as const;

const ROOT = generated as unknown as Readonly<Record<string, unknown>>;

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** Strips protobufjs's name for the synthetic oneof of a proto3 `optional` field ("_name"): nothing reads it. */
function withoutSyntheticOneofs<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const item of value) withoutSyntheticOneofs(item);
  } else if (value !== null && typeof value === "object" && !(value instanceof Uint8Array)) {
    const message = value as ProtoMessage;
    for (const key of Object.keys(message)) {
      if (key.charCodeAt(0) === 95 /* _ */) delete message[key];
      else withoutSyntheticOneofs(message[key]);
    }
  }
  return value;
}

export class Codec {
  private readonly types = new Map<string, GeneratedType>();

  private type(fullName: string): GeneratedType {
    let type = this.types.get(fullName);
    if (!type) {
      let at: unknown = ROOT;
      for (const part of fullName.split(".")) at = (at as Record<string, unknown> | undefined)?.[part];
      if (typeof at !== "function") throw new Error(`protocol message ${fullName} is not in the generated code`);
      type = at as unknown as GeneratedType;
      this.types.set(fullName, type);
    }
    return type;
  }

  encode(type: string, message: ProtoMessage | PreEncoded): Buffer {
    if (message instanceof PreEncoded) return message.bytes;
    const t = this.type(type);
    return asBuffer(t.encode(t.fromObject(message)).finish());
  }

  /** Encodes once for answers sent many times (the schema, remembered answers). */
  preEncoded(type: string, message: ProtoMessage): PreEncoded {
    return new PreEncoded(this.encode(type, message));
  }

  decode(type: string, bytes: Uint8Array): ProtoMessage {
    const t = this.type(type);
    return withoutSyntheticOneofs(t.toObject(t.decode(bytes), TO_OBJECT));
  }
}
