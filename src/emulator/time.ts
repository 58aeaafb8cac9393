// Timestamps on the wire are RFC 3339 strings. The service answers them normalized to
// UTC with a `Z`, with the fraction trimmed of trailing zeros (Go's RFC3339Nano), so a
// client can compare what it sent with what it reads after normalizing the same way.

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/** The normalized form of an RFC 3339 timestamp, or undefined when it is malformed. */
export function normalizeTimestamp(text: string): string | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return undefined;
  let offsetMinutes = 0;
  if (!m[8]) {
    const offHours = Number(m[10]);
    const offMinutes = Number(m[11]);
    if (offHours > 23 || offMinutes > 59) return undefined;
    offsetMinutes = (m[9] === "-" ? -1 : 1) * (offHours * 60 + offMinutes);
  }
  // Date.UTC treats years 0..99 as 1900+; setUTCFullYear keeps them literal.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year);
  const utc = new Date(date.getTime() - offsetMinutes * 60_000);
  if (Number.isNaN(utc.getTime()) || utc.getUTCFullYear() < 0 || utc.getUTCFullYear() > 9999) return undefined;
  const fraction = (m[7] ?? "").replace(/0+$/, "");
  return utc.toISOString().slice(0, 19) + (fraction ? `.${fraction}` : "") + "Z";
}

/** Milliseconds since the epoch of a timestamp already accepted by normalizeTimestamp. */
export function timestampMillis(normalized: string): number {
  return Date.parse(normalized);
}

/** The current time, to the second, as the service writes server-filled timestamps. */
export function nowIso(now: number = Date.now()): string {
  return new Date(now).toISOString().slice(0, 19) + "Z";
}

/** The current time with milliseconds, for event and query bookkeeping. */
export function nowIsoMillis(now: number = Date.now()): string {
  return new Date(now).toISOString();
}

/**
 * An event's `_time` as sent on ingest: an RFC 3339 string, or a number since the epoch
 * whose unit is guessed from its size (seconds, milliseconds, microseconds, nanoseconds).
 * Answers it as stored (toISOString text) and in ms.
 */
export function eventTimeFromValue(value: unknown): { text: string; ms: number } | undefined {
  if (typeof value === "string") {
    // Most clients send toISOString() text already: it is its own answer, read by arithmetic
    // (Date.parse and toISOString per event were a sixth of a million-event ingest).
    const canonical = canonicalIsoMillis(value);
    if (canonical !== undefined) return { text: value, ms: canonical };
    const normalized = normalizeTimestamp(value);
    if (normalized === undefined) return undefined;
    const ms = Date.parse(normalized);
    return { text: new Date(ms).toISOString(), ms };
  }
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) {
    const abs = Math.abs(value);
    const millis = abs < 1e11 ? value * 1000 : abs < 1e14 ? value : abs < 1e17 ? value / 1000 : value / 1e6;
    const date = new Date(millis);
    return Number.isNaN(date.getTime()) ? undefined : { text: date.toISOString(), ms: date.getTime() };
  }
  return undefined;
}

/** The digits of `text` in [from, from + count) as a number; -1 when one is not a digit. */
function digits(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Days from 1970-01-01 to the given proleptic Gregorian date (month 1..12). */
function daysFromEpoch(year: number, month: number, day: number): number {
  // Counted from March, so that the leap day ends a year: eras of 400 years, 146,097 days each.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Milliseconds of `text` when it is exactly what toISOString writes for a year 0000..9999
 * (YYYY-MM-DDTHH:MM:SS.sssZ, every field in range); undefined otherwise.
 */
export function canonicalIsoMillis(text: string): number | undefined {
  if (text.length !== 24 || text.charCodeAt(23) !== 90 /* Z */ || text.charCodeAt(10) !== 84 /* T */) return undefined;
  if (text[4] !== "-" || text[7] !== "-" || text[13] !== ":" || text[16] !== ":" || text[19] !== ".") return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const milli = digits(text, 20, 3);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || milli < 0) return undefined;
  if (day > (month === 2 && isLeap(year) ? 29 : MONTH_DAYS[month - 1]!)) return undefined;
  return ((daysFromEpoch(year, month, day) * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + milli;
}
