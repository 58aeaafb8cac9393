// A throw-away self-signed X.509 certificate for the plugin's TLS server, built with
// node:crypto alone. Terraform starts the provider several times per command, and a
// certificate library costs ~100 ms to load; an EC P-256 key plus a hand-built DER
// certificate costs about 1 ms.
//
// What Terraform (go-plugin) needs from it: it trusts exactly this certificate (it is
// passed in the handshake line), and it dials with ServerName "localhost", so the
// certificate must carry subjectAltName DNS:localhost.
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";

export interface SelfSignedCertificate {
  readonly certDer: Buffer;
  readonly certPem: string;
  readonly keyPem: string;
}

// ---- minimal DER writer ----

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

const sequence = (...items: Buffer[]): Buffer => tlv(0x30, ...items);
const set = (...items: Buffer[]): Buffer => tlv(0x31, ...items);
const octetString = (b: Buffer): Buffer => tlv(0x04, b);
const bitString = (b: Buffer): Buffer => tlv(0x03, Buffer.from([0]), b);
const utf8String = (s: string): Buffer => tlv(0x0c, Buffer.from(s, "utf8"));
const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 + n, inner);
const TRUE = tlv(0x01, Buffer.from([0xff]));

function unsignedInteger(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0) b = b.subarray(1);
  return tlv(0x02, b[0] & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  const out = [40 * parts[0] + parts[1]];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [];
    for (let v = part; ; v = Math.floor(v / 128)) {
      chunk.unshift((v % 128) | (chunk.length > 0 ? 0x80 : 0));
      if (v < 128) break;
    }
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function time(d: Date): Buffer {
  // RFC 5280: UTCTime through 2049, GeneralizedTime from 2050.
  const iso = d.toISOString().replace(/[-:T]/g, "").slice(0, 14) + "Z";
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2))) : tlv(0x18, Buffer.from(iso));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), TRUE, octetString(value)) : sequence(oid(id), octetString(value));
}

const OID = {
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  commonName: "2.5.4.3",
  organization: "2.5.4.10",
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  extKeyUsage: "2.5.29.37",
  subjectAltName: "2.5.29.17",
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
};

// keyUsage bits: digitalSignature (0), keyEncipherment (2), keyCertSign (5).
const KEY_USAGE_BITS = Buffer.from([0x03, 0x02, 0x01, 0xa4]);

export interface CertificateOptions {
  /** DNS names for subjectAltName; the first is also the subject CN. Default ["localhost"]. */
  readonly dnsNames?: readonly string[];
  /** Validity in days from now (backdated one hour for clock skew). Default 30. */
  readonly days?: number;
}

export function createSelfSignedCertificate(options: CertificateOptions = {}): SelfSignedCertificate {
  const dnsNames = options.dnsNames ?? ["localhost"];
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const now = Date.now();
  const notBefore = new Date(now - 60 * 60 * 1000);
  const notAfter = new Date(now + (options.days ?? 30) * 24 * 60 * 60 * 1000);
  const name = sequence(
    set(sequence(oid(OID.organization), utf8String("terraform-provider-ods"))),
    set(sequence(oid(OID.commonName), utf8String(dnsNames[0]))),
  );
  const algorithm = sequence(oid(OID.ecdsaWithSha256));
  const extensions = sequence(
    // A CA flag like go-plugin's own certificates: the client pins this one certificate
    // as its root, and some verifiers only accept CA certificates as roots.
    extension(OID.basicConstraints, true, sequence(TRUE)),
    extension(OID.keyUsage, true, KEY_USAGE_BITS),
    extension(OID.extKeyUsage, false, sequence(oid(OID.serverAuth), oid(OID.clientAuth))),
    extension(OID.subjectAltName, false, sequence(...dnsNames.map((n) => tlv(0x82, Buffer.from(n, "ascii"))))),
  );
  const tbs = sequence(
    explicit(0, unsignedInteger(Buffer.from([0x02]))), // v3
    unsignedInteger(Buffer.concat([Buffer.from([0x01]), randomBytes(15)])),
    algorithm,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    publicKey.export({ type: "spki", format: "der" }),
    explicit(3, extensions),
  );
  const signature = sign("sha256", tbs, privateKey); // DER ECDSA-Sig-Value
  const certDer = sequence(tbs, algorithm, bitString(signature));
  const base64 = certDer.toString("base64").replace(/(.{64})/g, "$1\n");
  return {
    certDer,
    certPem: `-----BEGIN CERTIFICATE-----\n${base64.replace(/\n$/, "")}\n-----END CERTIFICATE-----\n`,
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}
