// Value checks shared by the kinds. Each answers what was expected, in words a user can
// act on, or undefined when the value is fine.
import type { ValueCheck } from "./attributes";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// ISO 8601 date-time with a zone (Z or ±hh:mm), optional fractional seconds.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATASET_NAME = /^[A-Za-z0-9._-]+$/;
const DURATION = /^(\d+(ms|s|m|h|d))+$/;

export const MAX_STRING_LENGTH = 65_536;

export const nonEmpty: ValueCheck = (v) =>
  typeof v === "string" && v.trim() === "" ? "a non-empty string" : undefined;

export const email: ValueCheck = (v) =>
  typeof v === "string" && !EMAIL.test(v) ? `an e-mail address like "oncall@example.com", got "${v}"` : undefined;

export const httpUrl: ValueCheck = (v) => {
  if (typeof v !== "string") return undefined;
  try {
    const u = new URL(v);
    if (u.protocol === "http:" || u.protocol === "https:") return undefined;
  } catch {
    // fall through to the message below
  }
  return `an http(s) URL like "https://hooks.example.com/alert", got "${v}"`;
};

export const timestamp: ValueCheck = (v) =>
  typeof v === "string" && (!TIMESTAMP.test(v) || Number.isNaN(Date.parse(v)))
    ? `an ISO 8601 timestamp with a zone like "2027-01-01T00:00:00Z", got "${v}"`
    : undefined;

/** The longest dataset name the service accepts (docs/service-contract.md, Datasets). */
export const MAX_DATASET_NAME_LENGTH = 128;

export const datasetName: ValueCheck = (v) => {
  if (typeof v !== "string") return undefined;
  if (v.length > MAX_DATASET_NAME_LENGTH) return `a dataset name of at most ${MAX_DATASET_NAME_LENGTH} characters, got ${v.length}`;
  // "." and ".." would be rewritten away by URL normalization: the service refuses them.
  if (!DATASET_NAME.test(v) || v === "." || v === "..") return `a dataset name of letters, digits, "-", "_" and "." (not "." or ".."), got "${v}"`;
  return undefined;
};

export const integer: ValueCheck = (v) => (typeof v === "number" && !Number.isSafeInteger(v) ? `a whole number, got ${v}` : undefined);

export const duration: ValueCheck = (v) =>
  typeof v === "string" && !DURATION.test(v) ? `a duration like "30m", "24h" or "1h30m", got "${v}"` : undefined;

export function oneOf(allowed: readonly string[]): ValueCheck {
  return (v) =>
    typeof v === "string" && !allowed.includes(v) ? `one of ${allowed.map((a) => `"${a}"`).join(", ")}, got "${v}"` : undefined;
}

export function atLeast(min: number): ValueCheck {
  return (v) => (typeof v === "number" && v < min ? `a number >= ${min}, got ${v}` : undefined);
}

export function atMost(max: number): ValueCheck {
  return (v) => (typeof v === "number" && v > max ? `a number <= ${max}, got ${v}` : undefined);
}

/** Milliseconds of a duration such as "1h30m". */
export function durationMillis(text: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  let total = 0;
  for (const m of text.matchAll(/(\d+)(ms|s|m|h|d)/g)) total += Number(m[1]) * units[m[2]];
  return total;
}
