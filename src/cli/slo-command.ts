// `ods slo`: SLOs declared with slo.Slo. `report` tells each SLO's figures against the live
// service; `import` writes OpenSLO v1 as TypeScript. Exit 2: an import file is malformed.
import { Command, InvalidArgumentError } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { findStackFile, loadStack, type ProviderConfiguration } from "../reconcile/stack";
import { secretForms } from "../reconcile/redact";
import { VariableError } from "../reconcile/variables";
import { addSecrets } from "./redact-output";
import { listStacks } from "../reconcile/stack-selection";
import { inputsOfStack, variableInputs, withVariableOptions, type VariableOpts } from "./variable-options";
import { declaredSloNames, renderSloReport, renderSloReportHtml, sloReport, type ReportFormat } from "./slo-report";
import { importOpenSlo, sloTypeScript, SloImportError } from "./slo-import";
import { synth } from "../reconcile/synth";
import { withTarget } from "../reconcile/target";

export const EXIT_MALFORMED_IMPORT = 2;

function format(v: string): ReportFormat {
  if (v !== "text" && v !== "markdown" && v !== "json" && v !== "html") throw new InvalidArgumentError("expected text, markdown, json or html");
  return v;
}

export function registerSloCommand(program: Command, setExit: (code: number) => void): void {
  const slo = program.command("slo").description("SLOs declared with slo.Slo: their figures against the live service, and OpenSLO import.");
  const report = slo
    .command("report")
    .description("Each SLO's events, bad events, SLI, budget consumed, pages and tickets over its window, read from the live monitors slo.Slo generated (whichever engine applied them).")
    .option("--stack <name>", "only the SLOs this synthesized stack declares (default: every SLO among the live monitors)")
    .option("--format <format>", "text, markdown, json or html (one self-contained page with the budget and burn-rate charts)", format, "text" as ReportFormat)
    .option("--out-dir <dir>", "cdktf output directory (with --stack)", "cdktf.out")
    .option("--app <command>", "app command (with --stack; default: the app of cdktf.json)")
    .option("--no-synth", "with --stack: use the stack already synthesized in --out-dir")
    .option("--url <url>", "service URL (default: the stack's provider block with --stack, then ODS_URL)")
    .option("--token <token>", "API token (default: the stack's provider block with --stack, then ODS_TOKEN)")
    .option("--org-id <id>", "organization id (default: the stack's provider block with --stack, then ODS_ORG_ID)");
  // The same variable options as every command that reads a stack (the provider block may use them).
  withVariableOptions(report).action(
    async (o: VariableOpts & { stack?: string; format: ReportFormat; outDir: string; app?: string; synth: boolean; url?: string; token?: string; orgId?: string }) => {
      let only: string[] | undefined;
      let provider: ProviderConfiguration = { key: "ods", config: {}, implicit: false };
      if (o.stack !== undefined) {
        if (o.synth) {
          process.stderr.write(`Synthesizing ${o.app ?? "the app of cdktf.json"} into ${o.outDir} ...\n`);
          await synth({ app: o.app, out: o.outDir });
        }
        const file = findStackFile(o.outDir, o.stack);
        only = declaredSloNames(file);
        const variables = inputsOfStack(await variableInputs(o, listStacks(o.outDir).map((x) => x.name)), o.stack);
        const stack = loadStack(file, { variables });
        addSecrets(stack.sensitiveValues.flatMap(secretForms));
        provider = stack.providers.find((p) => p.key === "ods") ?? provider;
      } else if ((o.var ?? o.varFile ?? []).length > 0) {
        throw new VariableError(["--var and --var-file set a stack's variables: name the stack with --stack"]);
      }
      const report = await withTarget("ods slo report", { url: o.url, token: o.token, orgId: o.orgId }, provider, (client) => sloReport(client, Date.now(), only));
      process.stdout.write(o.format === "html" ? await renderSloReportHtml(report) : renderSloReport(report, o.format));
    },
  );
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
