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
    // Most clients send toISOString() text already: it is its own answer when it reads back unchanged.
    if (value.length === 24 && value.charCodeAt(23) === 90 /* Z */) {
      const ms = Date.parse(value);
      if (!Number.isNaN(ms) && new Date(ms).toISOString() === value) return { text: value, ms };
    }
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
