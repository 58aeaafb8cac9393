// `ods query 'APL'`: runs a query-language query and prints the tabular result as a
// table, JSON or CSV.
import { Command, InvalidArgumentError } from "commander";
import { tabularRows, type TabularQueryResult } from "../api";
import { withTarget } from "../reconcile/target";

function cell(v: unknown): string {
  if (v === null || v === undefined) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** A plain text table: one header row, columns padded to their widest cell. */
export function renderTable(fields: string[], rows: Record<string, unknown>[]): string {
  const widths = fields.map((f) => Math.max(f.length, ...rows.map((r) => cell(r[f]).length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(fields), line(widths.map((w) => "-".repeat(w))), ...rows.map((r) => line(fields.map((f) => cell(r[f]))))].join("\n");
}

function csvCell(v: unknown): string {
  const s = cell(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function renderResult(result: TabularQueryResult, format: "table" | "json" | "csv"): string {
  if (format === "json") return JSON.stringify(result.tables.map((t) => ({ name: t.name, rows: tabularRows(t) })), null, 2);
  return result.tables
    .map((t) => {
      const fields = t.fields.map((f) => f.name);
      const rows = tabularRows(t);
      if (format === "csv") return [fields.join(","), ...rows.map((r) => fields.map((f) => csvCell(r[f])).join(","))].join("\n");
      return `${renderTable(fields, rows)}\n(${rows.length} row${rows.length === 1 ? "" : "s"}${result.status.isPartial ? ", partial" : ""})`;
    })
    .join("\n\n");
}

export function registerQueryCommand(program: Command): void {
  program
    .command("query <apl>")
    .description("Run a query-language query, e.g. ods query \"['web-requests'] | summarize count() by status\"")
    .option("--start <time>", "start of the time range (ISO 8601)", "1970-01-01T00:00:00Z")
    .option("--end <time>", "end of the time range (ISO 8601; default now)")
    .option("--format <format>", "table, json or csv", (v: string) => {
      if (v !== "table" && v !== "json" && v !== "csv") throw new InvalidArgumentError("expected table, json or csv");
      return v;
    }, "table")
    .option("--url <url>", "service URL (default: ODS_URL)")
    .option("--token <token>", "API token (default: ODS_TOKEN)")
    .option("--org-id <id>", "organization id (default: ODS_ORG_ID)")
    .action(async (apl: string, o: { start: string; end?: string; format: "table" | "json" | "csv"; url?: string; token?: string; orgId?: string }) => {
      const result = await withTarget("ods query", { url: o.url, token: o.token, orgId: o.orgId }, { key: "ods", config: {}, implicit: false }, (client) =>
        client.queryAplTabular({ apl, startTime: o.start, endTime: o.end ?? new Date().toISOString() }),
      );
      process.stdout.write(`${renderResult(result, o.format)}\n`);
    });
}
