// Time helpers: ISO 8601 parsing and printing, timespan literals, the request's
// startTime/endTime (absolute or relative to now), and automatic bucket widths.

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|z|[+-]\d{2}:?\d{2})?$/;

/**
 * Milliseconds since the epoch of an ISO 8601 date or date-time, or undefined.
 * A time without a zone is UTC (the service stores and answers UTC), never local time.
 */
export function parseIsoTime(text: string): number | undefined {
  const m = ISO_RE.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const fracMs = frac ? Number(`0.${frac}`) * 1000 : 0;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0)) + fracMs;
  if (zone && zone.toUpperCase() !== "Z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  return Number.isNaN(ms) ? undefined : ms;
}

/** Times printed lately: a result prints the same bins again and again (once per group, per list, per sort key). */
const formatted = new Map<number, string>();
const FORMATTED_KEPT = 65_536;

/**
 * RFC 3339 UTC with trailing zeros of the fraction dropped (`...:00Z`, `...:00.5Z`), as
 * the service prints times (Go's RFC3339Nano).
 */
export function formatIsoTime(ms: number): string {
  const known = formatted.get(ms);
  if (known !== undefined) return known;
  const iso = new Date(Math.floor(ms)).toISOString();
  // toISOString always ends in `.mmmZ`: drop the fraction's trailing zeros, and its dot
  // when nothing is left.
  let end = iso.length - 1;
  while (iso.charCodeAt(end - 1) === 48 /* 0 */) end--;
  if (iso.charCodeAt(end - 1) === 46 /* . */) end--;
  const text = `${iso.slice(0, end)}Z`;
  if (formatted.size >= FORMATTED_KEPT) formatted.clear();
  formatted.set(ms, text);
  return text;
}

/**
 * A stored time as results print it: normalized like formatIsoTime, except that a
 * time with more than millisecond precision keeps its own digits.
 */
export function normalizeTimeText(text: string): string {
  const fraction = /\.(\d+)/.exec(text)?.[1] ?? "";
  if (fraction.replace(/0+$/, "").length > 3) return text;
  const ms = parseIsoTime(text);
  return ms === undefined ? text : formatIsoTime(ms);
}

const UNIT_MS: Readonly<Record<string, number>> = {
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  s: 1000,
  sec: 1000,
  second: 1000,
  seconds: 1000,
  ms: 1,
  milli: 1,
  millis: 1,
  millisecond: 1,
  milliseconds: 1,
  us: 0.001,
  ns: 0.000001,
  microsecond: 0.001,
  microseconds: 0.001,
  tick: 0.0001,
  ticks: 0.0001,
};

/** Milliseconds of a timespan unit (`5m` has unit `m`), or undefined for an unknown unit. */
export function timespanUnitMs(unit: string): number | undefined {
  return Object.prototype.hasOwnProperty.call(UNIT_MS, unit) ? UNIT_MS[unit] : undefined;
}

/**
 * Milliseconds of a timespan such as `5m`, `1.5h`, `30s`, `1d`, or a Go-style composite
 * such as `1h0m0s` (what Go clients send as a legacy `resolution`); undefined otherwise.
 */
export function parseTimespan(text: string): number | undefined {
  const t = text.trim().replace(/µs/g, "us");
  const negative = t.startsWith("-");
  const body = negative ? t.slice(1) : t;
  if (!/^(\d+(?:\.\d+)?\s*[a-z]+)+$/i.test(body)) return undefined;
  let total = 0;
  for (const m of body.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/gi)) {
    const unit = timespanUnitMs(m[2].toLowerCase());
    if (unit === undefined) return undefined;
    total += Number(m[1]) * unit;
  }
  return negative ? -total : total;
}

/** Go-style duration text (`1h0m0s`, `1m30s`, `250ms`), the way the service prints timespans. */
export function formatTimespan(ms: number): string {
  if (ms === 0) return "0s";
  if (ms < 0) return `-${formatTimespan(-ms)}`;
  if (ms < 1) return `${trimNumber(ms * 1000)}µs`;
  if (ms < 1000) return `${trimNumber(ms)}ms`;
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const seconds = (ms % 60_000) / 1000;
  let out = "";
  if (hours > 0) out += `${hours}h`;
  if (hours > 0 || minutes > 0) out += `${minutes}m`;
  return `${out}${trimNumber(seconds)}s`;
}

function trimNumber(n: number): string {
  return String(Number(n.toFixed(6)));
}

/**
 * A request time bound: ISO 8601, `now`, or `now` plus/minus a timespan (`now-1h`).
 * Returns undefined when the text is none of these.
 */
export function parseTimeBound(text: string, nowMs: number): number | undefined {
  const t = text.trim();
  const rel = /^now\s*(?:([+-])\s*(.+))?$/i.exec(t);
  if (rel) {
    if (!rel[1]) return nowMs;
    const span = parseTimespan(rel[2]);
    if (span === undefined) return undefined;
    return rel[1] === "-" ? nowMs - span : nowMs + span;
  }
  return parseIsoTime(t);
}

const AUTO_BIN_LADDER_MS = [
  1000, 5000, 10_000, 30_000, 60_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000,
  43_200_000, 86_400_000, 604_800_000, 2_592_000_000,
];

/** At most this many buckets over the query range; the service aims for a chart-sized series. */
export const AUTO_BIN_MAX_BUCKETS = 100;

/** The bucket width `bin_auto` and `resolution: "auto"` use for a range. */
export function autoBinMs(rangeMs: number): number {
  for (const width of AUTO_BIN_LADDER_MS) {
    if (rangeMs / width <= AUTO_BIN_MAX_BUCKETS) return width;
  }
  return AUTO_BIN_LADDER_MS[AUTO_BIN_LADDER_MS.length - 1];
}
