// The objects an `slo.Slo` generated, recognised from the live organization: every monitor
// of one SLO (each carries the SLO in its description's marker) and, when present, the
// dashboard it generates. The TypeScript export writes such a group back as one
// `slo.Slo`; an SLO whose monitors are incomplete or were changed outside the construct
// stays as its monitors, with a note saying why.
import { monitorDescription, pairMonitor, readMarker, sloDashboardUid, type SloDefinition } from "../resources/backtest/slo-model";
import type { ExportedObject, Expr } from "./export-model";

export interface SloGroup {
  slo: SloDefinition;
  /** The generated monitors, by pair (the order of `slo.Slo`'s `monitors`). */
  monitors: ExportedObject[];
  /** The generated dashboard, when the organization holds it. */
  dashboard?: ExportedObject;
  /** The construct's own description (what precedes the generated text). */
  description?: string;
  /** The notifier ids of the page and ticket monitors, as the export writes them. */
  pageNotifierIds?: Expr;
  ticketNotifierIds?: Expr;
  /** The field the dashboard breaks bad events down by. */
  breakdownField?: string;
}

const value = (o: ExportedObject, name: string): unknown => o.live.values[name];

function entry(o: ExportedObject, name: string): Expr | undefined {
  return o.body.entries.find((e) => e.key === name)?.value;
}

/** The user's description of pair I's monitor, or undefined when the description is not the construct's. */
function userDescription(slo: SloDefinition, i: number, description: unknown): string | undefined | false {
  if (typeof description !== "string") return false;
  const generated = monitorDescription(slo, i);
  if (description === generated) return undefined;
  return description.endsWith(`\n\n${generated}`) ? description.slice(0, -generated.length - 2) : false;
}

/** Whether a live monitor is what `slo.Slo` writes for pair I (nothing changed outside it). */
function asGenerated(slo: SloDefinition, i: number, m: ExportedObject): boolean {
  const wire = pairMonitor(slo, i);
  return (
    value(m, "name") === wire.name &&
    value(m, "apl_query") === wire.aplQuery &&
    value(m, "threshold") === wire.threshold &&
    value(m, "interval_minutes") === wire.intervalMinutes &&
    value(m, "range_minutes") === wire.rangeMinutes &&
    value(m, "type") === "Threshold" &&
    value(m, "operator") === "Above"
  );
}

/** The groups of generated objects, and notes on SLOs that could not be rebuilt. */
export function sloGroups(objects: readonly ExportedObject[]): { groups: SloGroup[]; notes: string[] } {
  const bySlo = new Map<string, { slo: SloDefinition; monitors: Map<number, ExportedObject> }>();
  for (const o of objects) {
    if (o.typeName !== "ods_monitor") continue;
    const marker = readMarker(value(o, "description"));
    if (!marker) continue;
    const key = JSON.stringify(marker.slo);
    const g = bySlo.get(key) ?? { slo: marker.slo, monitors: new Map<number, ExportedObject>() };
    bySlo.set(key, g);
    g.monitors.set(marker.pair, o);
  }
  const groups: SloGroup[] = [];
  const notes: string[] = [];
  for (const { slo, monitors } of bySlo.values()) {
    const ordered = slo.pairs.map((_, i) => monitors.get(i));
    const missing = ordered.filter((m) => !m).length;
    const descriptions = ordered.map((m, i) => (m ? userDescription(slo, i, value(m, "description")) : false));
    const changed = ordered.some((m, i) => m && (!asGenerated(slo, i, m) || descriptions[i] === false));
    if (missing > 0 || changed) {
      notes.push(`SLO "${slo.name}" is exported as its monitors, not as an slo.Slo: ${missing > 0 ? `${missing} of its ${slo.pairs.length} monitors are missing` : "a monitor was changed outside the construct"}`);
      continue;
    }
    const list = ordered as ExportedObject[];
    const firstOf = (severity: string): ExportedObject | undefined => list.find((_, i) => slo.pairs[i].severity === severity);
    const page = firstOf("page");
    const ticket = firstOf("ticket");
    const dashboard = objects.find((o) => o.typeName === "ods_dashboard" && value(o, "uid") === sloDashboardUid(slo.name));
    const breakdown = dashboard ? /"name":"Bad events by ([^"]+)"/.exec(String(value(dashboard, "dashboard")))?.[1] : undefined;
    groups.push({
      slo,
      monitors: list,
      ...(dashboard ? { dashboard } : {}),
      ...(typeof descriptions[0] === "string" ? { description: descriptions[0] } : {}),
      ...(page && entry(page, "notifier_ids") ? { pageNotifierIds: entry(page, "notifier_ids") } : {}),
      ...(ticket && entry(ticket, "notifier_ids") ? { ticketNotifierIds: entry(ticket, "notifier_ids") } : {}),
      ...(breakdown ? { breakdownField: breakdown } : {}),
    });
  }
  return { groups, notes };
}
