// Where the emulator may deliver a webhook. By default only to this machine (loopback
// addresses and `localhost`); `--deliver-to HOST[,HOST...]` adds hosts, and
// `--deliver-to any` allows every host. Link-local addresses (169.254.0.0/16, fe80::/10,
// where clouds serve instance metadata and credentials) and the known metadata
// addresses and names are never contacted, whatever the setting.
//
// The check runs before any socket is opened. A name that the setting does not allow
// is refused without being resolved; a name that is allowed is resolved once, every
// address it resolves to is checked, and the connection is made to the checked
// address (so that a second resolution cannot point it elsewhere).
import { lookup as dnsLookup } from "node:dns/promises";
import * as net from "node:net";

export type DeliverTo = { kind: "loopback" } | { kind: "hosts"; hosts: string[] } | { kind: "any" };

/** Address families as node:net names them. */
type Family = "ipv4" | "ipv6";

const NEVER = new net.BlockList();
NEVER.addSubnet("169.254.0.0", 16, "ipv4");
NEVER.addSubnet("fe80::", 10, "ipv6");
// Instance metadata services outside link-local: AWS over IPv6, Alibaba Cloud.
NEVER.addAddress("fd00:ec2::254", "ipv6");
NEVER.addAddress("100.100.100.200", "ipv4");
const NEVER_NAMES = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal", "metadata.azure.com"]);

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** Parses `--deliver-to`: "any", or host names and addresses separated by commas. */
export function parseDeliverTo(value: string | undefined): DeliverTo {
  if (value === undefined || value.trim() === "") return { kind: "loopback" };
  if (value.trim().toLowerCase() === "any") return { kind: "any" };
  const hosts = value.split(",").map((h) => normalizeHost(h.trim()));
  const bad = hosts.find((h) => h === "" || /[\s/@?#]/.test(h));
  if (bad !== undefined) throw new Error(`--deliver-to: "${bad}" is not a host name or address (expected HOST[,HOST...] or "any")`);
  return { kind: "hosts", hosts };
}

export function describeDeliverTo(policy: DeliverTo): string {
  return policy.kind === "any" ? "any host" : policy.kind === "loopback" ? "loopback only" : `loopback and ${policy.hosts.join(", ")}`;
}

function normalizeHost(host: string): string {
  const h = host.toLowerCase();
  return h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h.replace(/\.$/, "");
}

function familyOf(address: string): Family | undefined {
  const v = net.isIP(address);
  return v === 4 ? "ipv4" : v === 6 ? "ipv6" : undefined;
}

function isLoopback(address: string, family: Family): boolean {
  return LOOPBACK.check(address, family);
}

/** Why an address may never be contacted, or undefined. */
function neverReason(address: string, family: Family): string | undefined {
  if (NEVER.check(address, family)) return `${address} is a link-local or cloud metadata address, which the emulator never contacts`;
  return undefined;
}

export type TargetCheck = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

/** What a name resolves to; tests give their own (no test resolves a name off the machine). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Whether `url` may be delivered to under `policy`, and the one address to connect to.
 * Resolves a name only when the policy allows that name.
 */
export async function checkTarget(url: URL, policy: DeliverTo, resolve: Resolve = systemResolve): Promise<TargetCheck> {
  const host = normalizeHost(url.hostname);
  const literal = familyOf(host);
  const allowedByName = policy.kind === "any" || (policy.kind === "hosts" && policy.hosts.includes(host));
  if (literal) {
    const never = neverReason(host, literal);
    if (never) return { ok: false, reason: never };
    if (!allowedByName && !isLoopback(host, literal)) return { ok: false, reason: refusal(host, policy) };
    return { ok: true, address: host, family: literal === "ipv4" ? 4 : 6 };
  }
  if (NEVER_NAMES.has(host)) return { ok: false, reason: `${host} is a cloud metadata service, which the emulator never contacts` };
  const local = host === "localhost" || host.endsWith(".localhost");
  if (!allowedByName && !local) return { ok: false, reason: refusal(host, policy) };
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    return { ok: false, reason: `could not resolve ${host} (${(err as NodeJS.ErrnoException).code ?? "lookup failed"})` };
  }
  if (addresses.length === 0) return { ok: false, reason: `${host} resolves to no address` };
  for (const a of addresses) {
    const family = familyOf(a.address);
    if (!family) return { ok: false, reason: `${host} resolves to something that is not an address` };
    const never = neverReason(a.address, family);
    if (never) return { ok: false, reason: `${host} resolves to ${never}` };
    // localhost must stay on this machine even when the resolver says otherwise.
    if (local && !allowedByName && !isLoopback(a.address, family)) return { ok: false, reason: `${host} resolves to ${a.address}, which is not a loopback address` };
  }
  const first = addresses[0]!;
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

function refusal(host: string, policy: DeliverTo): string {
  return `${host} is not an allowed delivery host (the emulator delivers to ${describeDeliverTo(policy)}; start it with --deliver-to ${host} or --deliver-to any)`;
}
