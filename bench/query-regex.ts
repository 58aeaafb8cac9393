// `npm run bench:query-regex`: the regular-expression engines the emulator's query
// language could run on, over the patterns of the documented queries (docs/guides, the
// query tests, the shared contract's examples) and the audit's catastrophic one.
//
//   v8         JavaScript's RegExp (the engine before issue 48: backtracking)
//   re2js      RE2 ported to JavaScript (what the emulator uses)
//   re2-wasm   Google's RE2 compiled to WebAssembly
//
// For each pattern and engine: the time to test every line of a generated log (ns per
// line), the answers (how many lines match, and the first group of each match) compared
// with V8's, and each package's installed size. The catastrophic pattern runs on V8
// with a short line only (a longer one does not end); the RE2 engines take the long one.
// Ratios are to V8 in the same run. Output: bench/results/query-regex.md and .json.
//
// Settings (environment): BENCH_REGEX_LINES=20000 BENCH_REGEX_RUNS=3
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { RE2JS } from "re2js";
import { envNumber, ROOT } from "./harness";

// re2-wasm has no type declarations; the part used here.
interface WasmRe2 {
  exec(text: string): (string | undefined)[] | null;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { RE2: WasmRE2 } = require("re2-wasm") as { RE2: new (pattern: string, flags: string) => WasmRe2 };

const LINES = envNumber("BENCH_REGEX_LINES", 20_000);
const RUNS = envNumber("BENCH_REGEX_RUNS", 3);

interface Case {
  name: string;
  pattern: string;
  caseInsensitive?: boolean;
  /** What the pattern is applied to: a request path or a whole log line. */
  on: "path" | "line";
}

/** The patterns the documented queries use, as the engine receives them. */
const CORPUS: Case[] = [
  { name: "path prefix", pattern: "^/api/", on: "path" },
  { name: "trailing id", pattern: "/[0-9]+$", on: "path" },
  { name: "extract word", pattern: "/api/(\\w+)", on: "path" },
  { name: "digits", pattern: "[0-9]+", on: "path" },
  { name: "case-insensitive path", pattern: "^/api/users$", caseInsensitive: true, on: "path" },
  { name: "key:value pairs", pattern: "(\\w+):(\\d+)", on: "line" },
  { name: "parse request line", pattern: "^(.*?) (.*?) (-?\\d+)(.*)$", on: "line" },
  { name: "ip address", pattern: "(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})", on: "line" },
  { name: "status 5xx word", pattern: "\\b5\\d\\d\\b", on: "line" },
  { name: "alternation", pattern: "(timeout|refused|reset) after (\\d+)ms", on: "line" },
];

const CATASTROPHIC = "(a+)+$";
/** V8 needs about 2^n steps for n letters: 20 is measurable, 28 (the audit's) is minutes. */
const V8_HOSTILE_LETTERS = 20;
const RE2_HOSTILE_LETTERS = 28;

function makeLines(count: number): { path: string[]; line: string[] } {
  const methods = ["GET", "POST", "PUT", "DELETE"];
  const words = ["users", "orders", "health", "Users", "items"];
  const tails = ["timeout after 120ms", "refused after 3ms", "ok", "code:500 retry:2", "from 10.0.12.7", "status 503 upstream"];
  const out = { path: [] as string[], line: [] as string[] };
  for (let i = 0; i < count; i++) {
    const path = i % 7 === 0 ? "/health" : `/${i % 5 === 0 ? "API" : "api"}/${words[i % words.length]}${i % 3 === 0 ? `/${i}` : ""}`;
    out.path.push(path);
    out.line.push(`${methods[i % methods.length]} ${path} ${[200, 201, 404, 500][i % 4]} ${tails[i % tails.length]}`);
  }
  return out;
}

type Matcher = (text: string) => (string | undefined)[] | null;

function engines(c: Case): Record<string, Matcher> {
  const v8 = new RegExp(c.pattern, c.caseInsensitive ? "i" : "");
  const re2 = RE2JS.compile(c.pattern, c.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  const wasm = new WasmRE2(c.pattern, c.caseInsensitive ? "iu" : "u");
  return {
    v8: (t) => v8.exec(t),
    re2js: (t) => {
      const m = re2.matcher(t);
      if (!m.find()) return null;
      const out: (string | undefined)[] = [];
      for (let g = 0; g <= m.groupCount(); g++) out.push(m.group(g) ?? undefined);
      return out;
    },
    "re2-wasm": (t) => wasm.exec(t),
  };
}

interface Row {
  name: string;
  pattern: string;
  nsPerLine: Record<string, number>;
  matches: Record<string, number>;
  sameAnswers: Record<string, boolean>;
}

function answersOf(match: Matcher, lines: readonly string[]): string[] {
  return lines.map((l) => {
    const m = match(l);
    return m === null ? "-" : JSON.stringify(m.slice(0, 2).map((g) => g ?? null));
  });
}

function timePerLine(match: Matcher, lines: readonly string[]): number {
  let best = Infinity;
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    for (const l of lines) match(l);
    best = Math.min(best, performance.now() - t0);
  }
  return (best * 1e6) / lines.length;
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(p) : fs.statSync(p).size;
  }
  return total;
}

function main(): void {
  const texts = makeLines(LINES);
  const rows: Row[] = [];
  for (const c of CORPUS) {
    const matchers = engines(c);
    const lines = texts[c.on];
    const reference = answersOf(matchers.v8!, lines);
    const row: Row = { name: c.name, pattern: c.pattern, nsPerLine: {}, matches: {}, sameAnswers: {} };
    for (const [engine, match] of Object.entries(matchers)) {
      const answers = answersOf(match, lines);
      row.matches[engine] = answers.filter((a) => a !== "-").length;
      row.sameAnswers[engine] = answers.every((a, i) => a === reference[i]);
      row.nsPerLine[engine] = timePerLine(match, lines);
    }
    rows.push(row);
  }
  const hostile: Record<string, { letters: number; msPerLine: number }> = {};
  for (const [engine, match] of Object.entries(engines({ name: "catastrophic", pattern: CATASTROPHIC, on: "line" }))) {
    const letters = engine === "v8" ? V8_HOSTILE_LETTERS : RE2_HOSTILE_LETTERS;
    const line = `${"a".repeat(letters)}!`;
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) match(line);
    hostile[engine] = { letters, msPerLine: (performance.now() - t0) / 5 };
  }
  const sizes: Record<string, number> = {
    v8: 0,
    re2js: dirBytes(path.join(ROOT, "node_modules/re2js")),
    "re2-wasm": dirBytes(path.join(ROOT, "node_modules/re2-wasm")),
  };
  const names = ["v8", "re2js", "re2-wasm"];
  const md: string[] = [
    "# Regular-expression engines on the documented queries' patterns",
    "",
    `${LINES} generated request paths and log lines, best of ${RUNS} runs; Node ${process.version}. ns per line, and the ratio to V8 measured in the same run.`,
    "",
    `| pattern | ${names.map((n) => `${n} ns/line`).join(" | ")} | re2js / v8 | re2-wasm / v8 | matching lines | same answers as v8 |`,
    `| --- | ${names.map(() => "---:").join(" | ")} | ---: | ---: | ---: | --- |`,
  ];
  for (const r of rows) {
    const ns = names.map((n) => r.nsPerLine[n]!.toFixed(0));
    const ratio = (n: string): string => (r.nsPerLine[n]! / r.nsPerLine.v8!).toFixed(2);
    const same = names.slice(1).map((n) => `${n}: ${r.sameAnswers[n] ? "yes" : "NO"}`).join(", ");
    md.push(`| ${r.name} \`${r.pattern}\` | ${ns.join(" | ")} | ${ratio("re2js")} | ${ratio("re2-wasm")} | ${r.matches.v8} | ${same} |`);
  }
  md.push(
    "",
    `Catastrophic \`${CATASTROPHIC}\` on one line of n letters and \`!\`: ` +
      names.map((n) => `${n} ${hostile[n]!.msPerLine.toFixed(2)} ms (n=${hostile[n]!.letters})`).join(", ") +
      `. V8 doubles with each letter: n=28, the audit's, is about ${((hostile.v8!.msPerLine * 2 ** (RE2_HOSTILE_LETTERS - V8_HOSTILE_LETTERS)) / 1000).toFixed(0)} s per line.`,
    "",
    `Installed size: re2js ${(sizes.re2js! / 1024).toFixed(0)} KiB, re2-wasm ${(sizes["re2-wasm"]! / 1024).toFixed(0)} KiB.`,
  );
  const outDir = path.join(ROOT, "bench/results");
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, "query-regex.md"), `${md.join("\n")}\n`);
  fs.writeFileSync(path.join(outDir, "query-regex.json"), `${JSON.stringify({ lines: LINES, runs: RUNS, node: process.version, rows, hostile, sizes }, null, 2)}\n`);
  process.stdout.write(`${md.join("\n")}\n`);
}

main();
