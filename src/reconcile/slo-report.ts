// Each SLO's figures against the live service (`ods slo report`, the automation API's
// sloReport()), read from the monitors slo.Slo generated (their description's marker),
// whichever engine applied them: events, bad events, SLI, budget consumed, pages and
// tickets over the SLO's window. Rendering is the CLI's (src/cli/slo-report.ts).
import * as fs from "node:fs";
import type { OdsClient } from "../api";
import { figuresJson, figuresOf, liveSlos } from "../resources/backtest/slo-insight";
import { readMarker, type SloDefinition } from "../resources/backtest/slo-model";
import type { SloFigures } from "../resources/backtest/slo-replay";

export interface SloReportEntry {
  slo: SloDefinition;
  figures?: SloFigures;
  error?: string;
}

/** The SLO names a synthesized stack declares (the markers of its monitors' descriptions). */
export function declaredSloNames(stackFile: string): string[] {
  const json = JSON.parse(fs.readFileSync(stackFile, "utf8")) as { resource?: { ods_monitor?: Record<string, { description?: unknown }> } };
  const names = new Set<string>();
  for (const m of Object.values(json.resource?.ods_monitor ?? {})) {
    const marker = readMarker(m.description);
    if (marker) names.add(marker.slo.name);
  }
  return [...names].sort();
}

/** Reads every live SLO (or those named) and its figures at `nowMs`; a shared read per SLO. */
export async function sloReport(client: OdsClient, nowMs: number, only?: readonly string[]): Promise<{ entries: SloReportEntry[]; missing: string[] }> {
  const live = liveSlos(await client.listMonitors());
  const wanted = only ? live.filter((s) => only.includes(s.name)) : live;
  const missing = only ? only.filter((n) => !live.some((s) => s.name === n)) : [];
  const answers = new Map<string, Promise<unknown>>();
  const entries = await Promise.all(
    wanted.map(async (slo): Promise<SloReportEntry> => {
      const f = await figuresOf(client, slo, nowMs, answers);
      return "error" in f ? { slo, error: f.error } : { slo, figures: f };
    }),
  );
  return { entries, missing };
}

/** The report's machine form (`ods slo report --format json`): each SLO's figures, or why it was skipped. */
export function sloReportJson(report: { entries: SloReportEntry[]; missing: string[] }): { slos: Record<string, unknown>[]; notApplied: string[] } {
  return {
    slos: report.entries.map((e) => (e.figures ? { ...figuresJson(e.figures, e.slo.path), queries: e.figures.queries } : { name: e.slo.name, path: e.slo.path, skipped: e.error })),
    notApplied: report.missing,
  };
}
