// Date and number functions: datetime_diff, datetime_part, startof*/endof*, hourofday,
// dayofweek, format_datetime, floor with one argument, round.

import { describe, expect, it } from "vitest";
import { expectRows, tabular } from "./fixtures";

describe("datetime_diff and datetime_part", () => {
  it("datetime_diff counts period boundaries between the two times", () => {
    expectRows(
      "print y = datetime_diff('year', datetime(2017-01-01), datetime(2000-12-31)), q = datetime_diff('quarter', datetime(2017-01-01), datetime(2000-12-31)), mo = datetime_diff('month', datetime(2017-01-01), datetime(2000-12-31)), w = datetime_diff('week', datetime(2017-10-29 00:00), datetime(2017-09-30 23:59)), d = datetime_diff('day', datetime(2017-01-01), datetime(2000-12-31)), h = datetime_diff('hour', datetime(2024-01-01 10:59), datetime(2024-01-01 09:01)), mi = datetime_diff('minute', datetime(2024-01-01 10:00), datetime(2024-01-01 10:30)), s = datetime_diff('second', datetime(2024-01-01 00:00:10), datetime(2024-01-01 00:00:09.9)), bad = datetime_diff('fortnight', now(), now())",
      [{ y: 17, q: 65, mo: 193, w: 5, d: 5845, h: 1, mi: -30, s: 1, bad: null }],
    );
  });

  it("datetime_part reads one calendar part, down to the nanosecond", () => {
    expectRows(
      "print t = datetime(2017-10-30 01:02:03.7654321) | project y = datetime_part('year', t), q = datetime_part('quarter', t), mo = datetime_part('month', t), w = datetime_part('week_of_year', t), d = datetime_part('day', t), doy = datetime_part('dayofyear', t), h = datetime_part('hour', t), mi = datetime_part('minute', t), s = datetime_part('second', t), ms = datetime_part('millisecond', t), us = datetime_part('microsecond', t), ns = datetime_part('nanosecond', t)",
      [{ y: 2017, q: 4, mo: 10, w: 44, d: 30, doy: 303, h: 1, mi: 2, s: 3, ms: 765, us: 765432, ns: 765432100 }],
    );
  });
});

describe("datetime_add", () => {
  it("adds calendar months and years (keeping the day where it can) and fixed units", () => {
    expectRows(
      "print m = datetime_add('month', 1, datetime(2024-01-31 10:00)), y = datetime_add('year', -1, datetime(2024-02-29)), q = datetime_add('quarter', 1, datetime(2024-01-15)), w = datetime_add('week', 2, datetime(2024-01-01)), h = datetime_add('hour', -3, datetime(2024-01-01)), bad = datetime_add('eon', 1, now()), n = datetime_add('day', 1, todatetime('x'))",
      [{ m: "2024-02-29T10:00:00Z", y: "2023-02-28T00:00:00Z", q: "2024-04-15T00:00:00Z", w: "2024-01-15T00:00:00Z", h: "2023-12-31T21:00:00Z", bad: null, n: null }],
    );
  });
});

describe("start and end of periods", () => {
  it("startof*/endof* in UTC, weeks from Sunday, with an offset; null stays null", () => {
    const t = expectRows(
      "datatable(t: datetime) [datetime(2024-03-15 13:45), null] | project sd = startofday(t), sw = startofweek(t), sm = startofmonth(t), sy = startofyear(t), ed = endofday(t), ew = endofweek(t), em = endofmonth(t), ey = endofyear(t), next = startofmonth(t, 1), prev = startofday(t, -1)",
      [
        {
          sd: "2024-03-15T00:00:00Z",
          sw: "2024-03-10T00:00:00Z",
          sm: "2024-03-01T00:00:00Z",
          sy: "2024-01-01T00:00:00Z",
          ed: "2024-03-15T23:59:59.9999999Z",
          ew: "2024-03-16T23:59:59.9999999Z",
          em: "2024-03-31T23:59:59.9999999Z",
          ey: "2024-12-31T23:59:59.9999999Z",
          next: "2024-04-01T00:00:00Z",
          prev: "2024-03-14T00:00:00Z",
        },
        { sd: null, sw: null, sm: null, sy: null, ed: null, ew: null, em: null, ey: null, next: null, prev: null },
      ],
    );
    expect(t.tables[0].fields.every((f) => f.type === "datetime")).toBe(true);
  });

  it("summarize by startofday groups events of one day", () => {
    expectRows("['web-logs'] | summarize n = count() by day = startofday(_time)", [{ day: "2024-01-01T00:00:00Z", n: 6 }]);
  });
});

describe("hourofday, dayofweek, format_datetime", () => {
  it("hourofday is a number, dayofweek a timespan since Sunday", () => {
    const t = expectRows("print h = hourofday(datetime(2024-03-15 13:45)), dw = dayofweek(datetime(2024-03-15)), sun = dayofweek(datetime(2024-03-17))", [
      { h: 13, dw: "120h0m0s", sun: "0s" },
    ]);
    expect(t.tables[0].fields.map((f) => f.type)).toEqual(["integer", "timespan", "timespan"]);
    expectRows("['web-logs'] | summarize count() by hourofday(_time)", [{ Column1: 0, count_: 6 }]);
  });

  it("format_datetime with the language's specifiers", () => {
    expectRows(
      "print a = format_datetime(datetime(2024-03-05 07:08:09.123), 'yyyy-MM-dd HH:mm:ss.fff'), b = format_datetime(datetime(2024-03-05 19:08:09), 'M/d/yy h:mm tt'), c = format_datetime(datetime(2024-03-05 07:08:09.5), \"'at' HH:mm:ss.FFF\")",
      [{ a: "2024-03-05 07:08:09.123", b: "3/5/24 7:08 PM", c: "at 07:08:09.5" }],
    );
  });
});

describe("floor and round", () => {
  it("floor with one argument rounds down; with two it bins", () => {
    expectRows("print a = floor(2.7), b = floor(-2.5), c = floor(7, 5), d = floor('x'), e = ceiling(2.1)", [{ a: 2, b: -3, c: 5, d: null, e: 3 }]);
    expect(tabular("['web-logs'] | summarize count() by floor(_time, 2m)").tables[0].columns[0]).toEqual(["2024-01-01T00:00:00Z", "2024-01-01T00:02:00Z"]);
  });

  it("round to digits, to tens with negative digits, null stays null", () => {
    expectRows("print a = round(1234.5678, 2), b = round(1234.5678, -2), c = round(2.5), d = round(todouble(dynamic(null)), 1)", [{ a: 1234.57, b: 1200, c: 3, d: null }]);
    expectRows("['web-logs'] | summarize r = round(avg(duration)) by ok | sort by ok asc", [
      { ok: false, r: 465 },
      { ok: true, r: 70 },
    ]);
  });
});
