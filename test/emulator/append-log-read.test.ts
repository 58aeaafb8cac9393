// Reading an append-only JSON-lines file back (src/emulator/append-log.ts), as a restart
// does with the journal and with every dataset's events: in pieces, so a file larger than
// a piece is read line for line; a torn last line (an append never acknowledged) is
// dropped and cut from the file; a bad line anywhere else is corruption.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readJsonLines } from "../../src/emulator/append-log";

const dirs: string[] = [];
function fileWith(text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-append-read-"));
  dirs.push(dir);
  const file = path.join(dir, "log.ndjson");
  fs.writeFileSync(file, text);
  return file;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("readJsonLines", () => {
  it("reads a file larger than one piece (8 MiB) line for line, multi-byte text across the cuts", () => {
    const lines: string[] = [];
    for (let i = 0; i < 120_000; i++) lines.push(JSON.stringify({ i, text: `ünïcødé ${"x".repeat(i % 97)} ✓` }));
    const file = fileWith(`${lines.join("\n")}\n`);
    expect(fs.statSync(file).size).toBeGreaterThan(8 * 1024 * 1024);
    const values = readJsonLines(file) as { i: number; text: string }[];
    expect(values).toHaveLength(lines.length);
    expect(values.every((v, i) => v.i === i && JSON.stringify(v) === lines[i])).toBe(true);
  });

  it("drops a torn tail and cuts the file back to its last whole line", () => {
    const file = fileWith('{"a":1}\n\n{"a":2}\n{"a":');
    expect(readJsonLines(file)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(fs.readFileSync(file, "utf8")).toBe('{"a":1}\n\n{"a":2}\n');
  });

  it("drops a last whole line that does not parse, and cuts it", () => {
    const file = fileWith('{"a":1}\n{"a":2\n');
    expect(readJsonLines(file)).toEqual([{ a: 1 }]);
    expect(fs.readFileSync(file, "utf8")).toBe('{"a":1}\n');
  });

  it("refuses a bad line with lines after it, even blank ones", () => {
    expect(() => readJsonLines(fileWith('{"a":1}\n{"a"\n{"a":3}\n'))).toThrow(/unreadable line 2; the file is corrupt/);
    expect(() => readJsonLines(fileWith('{"a":1}\n{"a"\n\n'))).toThrow(/unreadable line 2; the file is corrupt/);
  });

  it("refuses lines that would only parse joined (one value split over two lines, two values on one), whatever piece they are in", () => {
    const filler = `${JSON.stringify({ pad: "y".repeat(200) })}\n`.repeat(50_000);
    for (const before of ["", filler]) {
      // Joined with commas, as many values as lines: only a line-by-line reading tells.
      expect(() => readJsonLines(fileWith(`${before}{"a":[1\n2]}\n{"b":1},{"c":2}\n{"d":4}\n`))).toThrow(/the file is corrupt/);
      expect(() => readJsonLines(fileWith(`${before}{"a":1}\n]\n[\n{"d":4}\n`))).toThrow(/the file is corrupt/);
    }
    // Strings holding what looks like structure are data.
    const tricky = [{ s: "},{" }, { s: '"\n],[' }, { s: "\\" }];
    expect(readJsonLines(fileWith(`${filler}${tricky.map((v) => JSON.stringify(v)).join("\n")}\n`)).slice(-3)).toEqual(tricky);
  });

  it("answers nothing for a missing file", () => {
    expect(readJsonLines(path.join(os.tmpdir(), "ods-no-such-dir", "none.ndjson"))).toEqual([]);
  });
});
