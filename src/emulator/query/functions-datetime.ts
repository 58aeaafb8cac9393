// Date functions of the query language: calendar parts, start/end of a period,
// differences counted in period boundaries, and format_datetime. All in UTC, as the
// service answers; weeks start on Sunday, as the language's startofweek does.

import { DateTimeValue, TimespanValue, toText, type Value } from "./values";

const DAY_MS = 86_400_000;
/** The language's tick (100 ns) in milliseconds: endof* ends one tick before the next period. */
const TICK_MS = 0.0001;

export function asDate(v: Value): DateTimeValue | null {
  return v instanceof DateTimeValue ? v : null;
}

const offsetOf = (v: Value | undefined): number => (typeof v === "number" && Number.isInteger(v) ? v : 0);

/** Start of the day/week/month/year holding `ms`, moved by `offset` such periods. */
export function startOf(period: "day" | "week" | "month" | "year", ms: number, offset = 0): number {
  const d = new Date(Math.floor(ms));
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (period) {
    case "day":
      return Date.UTC(y, m, d.getUTCDate() + offset);
    case "week":
      return Date.UTC(y, m, d.getUTCDate() - d.getUTCDay() + 7 * offset);
    case "month":
      return Date.UTC(y, m + offset, 1);
    case "year":
      return Date.UTC(y + offset, 0, 1);
  }
}

/** `endofday(...)`: the last tick of the period, printed with all seven fraction digits. */
function endOf(period: "day" | "week" | "month" | "year", ms: number, offset: number): DateTimeValue {
  const next = startOf(period, ms, offset + 1);
  const text = new Date(next - 1).toISOString().replace(/\.\d{3}Z$/, ".9999999Z");
  return new DateTimeValue(next - TICK_MS, text);
}

export function periodFunction(kind: "start" | "end", period: "day" | "week" | "month" | "year") {
  return (args: Value[]): Value => {
    const d = asDate(args[0]);
    if (!d) return null;
    const offset = offsetOf(args[1]);
    return kind === "start" ? new DateTimeValue(startOf(period, d.ms, offset)) : endOf(period, d.ms, offset);
  };
}

/** ISO 8601 week number (weeks start on Monday; week 1 holds the year's first Thursday). */
function isoWeek(ms: number): number {
  const d = new Date(Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), new Date(ms).getUTCDate()));
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  return Math.ceil(((d.getTime() - yearStart) / DAY_MS + 1) / 7);
}

function dayOfYear(ms: number): number {
  const d = new Date(ms);
  return Math.floor((startOf("day", ms) - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
}

/** The 100 ns ticks beyond the millisecond (a time keeps them as the fraction of its ms). */
function subMillisecondTicks(d: DateTimeValue): number {
  return Math.round((d.ms - Math.floor(d.ms)) * 10_000) % 10_000;
}

const PART_ALIASES: Readonly<Record<string, string>> = {
  years: "year",
  quarters: "quarter",
  months: "month",
  weeks: "week",
  week_of_year: "week",
  days: "day",
  hours: "hour",
  minutes: "minute",
  seconds: "second",
  milliseconds: "millisecond",
  microseconds: "microsecond",
  nanoseconds: "nanosecond",
};

const partName = (v: Value): string => {
  const p = toText(v).trim().toLowerCase();
  return PART_ALIASES[p] ?? p;
};

/** `datetime_part('hour', t)`: one calendar part as a number; null for an unknown part. */
export function datetimePart(args: Value[]): Value {
  const d = asDate(args[1]);
  if (!d) return null;
  const t = new Date(Math.floor(d.ms));
  switch (partName(args[0])) {
    case "year":
      return t.getUTCFullYear();
    case "quarter":
      return Math.floor(t.getUTCMonth() / 3) + 1;
    case "month":
      return t.getUTCMonth() + 1;
    case "week":
      return isoWeek(d.ms);
    case "day":
      return t.getUTCDate();
    case "dayofyear":
      return dayOfYear(d.ms);
    case "hour":
      return t.getUTCHours();
    case "minute":
      return t.getUTCMinutes();
    case "second":
      return t.getUTCSeconds();
    case "millisecond":
      return t.getUTCMilliseconds();
    case "microsecond":
      return t.getUTCMilliseconds() * 1000 + Math.floor(subMillisecondTicks(d) / 10);
    case "nanosecond":
      return t.getUTCMilliseconds() * 1_000_000 + subMillisecondTicks(d) * 100;
    default:
      return null;
  }
}

const UNIT_MS: Readonly<Record<string, number>> = { hour: 3_600_000, minute: 60_000, second: 1000, millisecond: 1, microsecond: 0.001, nanosecond: 0.000001 };

/**
 * `datetime_diff(part, a, b)`: how many period boundaries lie between b and a (positive
 * when a is later): datetime_diff('year', 2017-01-01, 2000-12-31) is 17.
 */
export function datetimeDiff(args: Value[]): Value {
  const a = asDate(args[1]);
  const b = asDate(args[2]);
  if (!a || !b) return null;
  const ta = new Date(Math.floor(a.ms));
  const tb = new Date(Math.floor(b.ms));
  const part = partName(args[0]);
  switch (part) {
    case "year":
      return ta.getUTCFullYear() - tb.getUTCFullYear();
    case "quarter":
      return ta.getUTCFullYear() * 4 + Math.floor(ta.getUTCMonth() / 3) - (tb.getUTCFullYear() * 4 + Math.floor(tb.getUTCMonth() / 3));
    case "month":
      return ta.getUTCFullYear() * 12 + ta.getUTCMonth() - (tb.getUTCFullYear() * 12 + tb.getUTCMonth());
    case "week":
      return Math.round((startOf("week", a.ms) - startOf("week", b.ms)) / (7 * DAY_MS));
    case "day":
      return Math.round((startOf("day", a.ms) - startOf("day", b.ms)) / DAY_MS);
    default: {
      const unit = UNIT_MS[part];
      if (unit === undefined) return null;
      return Math.floor(a.ms / unit + 1e-9) - Math.floor(b.ms / unit + 1e-9);
    }
  }
}

const ADD_MS: Readonly<Record<string, number>> = { week: 7 * DAY_MS, day: DAY_MS, ...UNIT_MS };

/** `datetime_add(part, amount, t)`: calendar months and years keep the day where they can. */
export function datetimeAdd(args: Value[]): Value {
  const d = asDate(args[2]);
  const amount = args[1];
  if (!d || typeof amount !== "number" || !Number.isInteger(amount)) return null;
  const part = partName(args[0]);
  const months = part === "year" ? 12 * amount : part === "quarter" ? 3 * amount : part === "month" ? amount : null;
  if (months !== null) {
    const t = new Date(Math.floor(d.ms));
    const target = Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + months, 1);
    const lastDay = new Date(Date.UTC(new Date(target).getUTCFullYear(), new Date(target).getUTCMonth() + 1, 0)).getUTCDate();
    const day = Math.min(t.getUTCDate(), lastDay);
    return new DateTimeValue(target + (day - 1) * DAY_MS + (d.ms - startOf("day", d.ms)));
  }
  const unit = ADD_MS[part];
  return unit === undefined ? null : new DateTimeValue(d.ms + amount * unit);
}

export function dayOfWeek(args: Value[]): Value {
  const d = asDate(args[0]);
  return d ? new TimespanValue(new Date(Math.floor(d.ms)).getUTCDay() * DAY_MS) : null;
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0");

/**
 * format_datetime(t, 'yyyy-MM-dd HH:mm:ss.fff'): the language's format specifiers
 * (yyyy yy MM M dd d HH H hh h mm m ss s f..fffffff F..FFFFFFF tt); any other character,
 * and text in quotes, is copied as it is.
 */
export function formatDatetime(args: Value[]): Value {
  const d = asDate(args[0]);
  if (!d || args[1] === null) return null;
  const fmt = toText(args[1]);
  const t = new Date(Math.floor(d.ms));
  const ticks = t.getUTCMilliseconds() * 10_000 + subMillisecondTicks(d);
  const fraction = pad(ticks, 7);
  const h12 = t.getUTCHours() % 12 === 0 ? 12 : t.getUTCHours() % 12;
  let out = "";
  let i = 0;
  while (i < fmt.length) {
    const c = fmt[i];
    if (c === "'" || c === '"') {
      const close = fmt.indexOf(c, i + 1);
      const end = close < 0 ? fmt.length : close;
      out += fmt.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    let run = 1;
    while (fmt[i + run] === c) run++;
    switch (c) {
      case "y":
        out += run >= 4 ? pad(t.getUTCFullYear(), run) : pad(t.getUTCFullYear() % 100, Math.min(run, 2));
        break;
      case "M":
        out += pad(t.getUTCMonth() + 1, Math.min(run, 2));
        break;
      case "d":
        out += pad(t.getUTCDate(), Math.min(run, 2));
        break;
      case "H":
        out += pad(t.getUTCHours(), Math.min(run, 2));
        break;
      case "h":
        out += pad(h12, Math.min(run, 2));
        break;
      case "m":
        out += pad(t.getUTCMinutes(), Math.min(run, 2));
        break;
      case "s":
        out += pad(t.getUTCSeconds(), Math.min(run, 2));
        break;
      case "f":
        out += fraction.slice(0, Math.min(run, 7));
        break;
      case "F":
        out += fraction.slice(0, Math.min(run, 7)).replace(/0+$/, "");
        break;
      case "t":
        out += (t.getUTCHours() < 12 ? "AM" : "PM").slice(0, Math.min(run, 2));
        break;
      default:
        out += c.repeat(run);
    }
    i += run;
  }
  return out;
}
