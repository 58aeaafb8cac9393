// Runs a kind's plan insight (a monitor's backtest) for values about to be written. An
// insight informs a review; it never fails a plan, so a service that cannot answer turns
// it into a note.
import { OdsApiError, type OdsClient } from "../api";
import type { PlanInsightOptions, PlanInsightReport, ResourceKind, Values } from "../resources";
import { containsUnknown } from "./unknown";

export type PlanInsightOutcome = { kind: "report"; report: PlanInsightReport } | { kind: "skipped"; reason: string };

export async function runPlanInsight(
  client: OdsClient,
  kind: ResourceKind,
  values: Values,
  live: { id: string; values: Values } | undefined,
  options: PlanInsightOptions,
): Promise<PlanInsightOutcome | undefined> {
  const insight = kind.planInsight;
  if (!insight) return undefined;
  const missing = insight.needs.filter((n) => containsUnknown([values[n]]));
  if (missing.length > 0) return { kind: "skipped", reason: `${insight.title} skipped: ${missing.join(", ")} known only after apply` };
  try {
    return { kind: "report", report: await insight.run(client, values, live, options) };
  } catch (err) {
    if (err instanceof OdsApiError) return { kind: "skipped", reason: `${insight.title} skipped: the service answered ${err.status || "nothing"}: ${err.serviceMessage ?? err.message}` };
    throw err;
  }
}
