// `ods slo`: SLOs declared with slo.Slo. `report` tells each SLO's figures against the live
// service; `import` writes OpenSLO v1 as TypeScript. Exit 2: an import file is malformed.
import { Command, InvalidArgumentError } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { findStackFile } from "../reconcile/stack";
import { declaredSloNames, renderSloReport, sloReport, type ReportFormat } from "./slo-report";
import { importOpenSlo, sloTypeScript, SloImportError } from "./slo-import";
import { synth } from "./synth";
import { clientFor } from "./target";

export const EXIT_MALFORMED_IMPORT = 2;

function format(v: string): ReportFormat {
  if (v !== "text" && v !== "markdown" && v !== "json") throw new InvalidArgumentError("expected text, markdown or json");
  return v;
}

export function registerSloCommand(program: Command, setExit: (code: number) => void): void {
  const slo = program.command("slo").description("SLOs declared with slo.Slo: their figures against the live service, and OpenSLO import.");
  slo
    .command("report")
    .description("Each SLO's events, bad events, SLI, budget consumed, pages and tickets over its window, read from the live monitors slo.Slo generated (whichever engine applied them).")
    .option("--stack <name>", "only the SLOs this synthesized stack declares (default: every SLO among the live monitors)")
    .option("--format <format>", "text, markdown or json", format, "text" as ReportFormat)
    .option("--out-dir <dir>", "cdktf output directory (with --stack)", "cdktf.out")
    .option("--app <command>", "app command (with --stack; default: the app of cdktf.json)")
    .option("--no-synth", "with --stack: use the stack already synthesized in --out-dir")
    .option("--url <url>", "service URL (default: ODS_URL)")
    .option("--token <token>", "API token (default: ODS_TOKEN)")
    .action(async (o: { stack?: string; format: ReportFormat; outDir: string; app?: string; synth: boolean; url?: string; token?: string }) => {
      let only: string[] | undefined;
      if (o.stack !== undefined) {
        if (o.synth) {
          process.stderr.write(`Synthesizing ${o.app ?? "the app of cdktf.json"} into ${o.outDir} ...\n`);
          await synth({ app: o.app, out: o.outDir });
        }
        only = declaredSloNames(findStackFile(o.outDir, o.stack));
      }
      const client = clientFor({ url: o.url, token: o.token });
      try {
        process.stdout.write(renderSloReport(await sloReport(client, Date.now(), only), o.format));
      } finally {
        await client.close();
      }
    });
  slo
    .command("import <file>")
    .description("Write an OpenSLO v1 file (SLO with a ratioMetric of metricSource type ods, AlertPolicy burn-rate conditions) as TypeScript using slo.Slo.")
    .option("--out <file>", "write the TypeScript here instead of stdout")
    .action((file: string, o: { out?: string }) => {
      let text: string;
      try {
        text = fs.readFileSync(file, "utf8");
      } catch (err) {
        process.stderr.write(`ods slo import: cannot read ${file}: ${(err as Error).message}\n`);
        setExit(EXIT_MALFORMED_IMPORT);
        return;
      }
      try {
        const ts = sloTypeScript(path.basename(file), importOpenSlo(file, text));
        if (o.out) fs.writeFileSync(o.out, ts);
        else process.stdout.write(ts);
      } catch (err) {
        if (!(err instanceof SloImportError)) throw err;
        process.stderr.write(`ods slo import: ${err.message}\n`);
        setExit(EXIT_MALFORMED_IMPORT);
      }
    });
}
