// A monitor, view, starred query or virtual field whose query names a dataset that is
// neither in the target organization nor created by the configuration can never see an
// event: a production monitor on `stg-checkout-logs` plans, applies and stays silent.
// Both engines warn (a Terraform warning diagnostic), naming the dataset and the
// existing datasets with the most similar names. A warning, not a refusal: a dataset may
// be created by another stack or by ingestion.
import type { OdsClient } from "../api";
import { DATASET_TYPE_NAME, namedDatasets, sharedRead, type PlanCheckProblem, type ResourceKind, type Values } from "../resources";
import { isPlaceholder } from "../resources/placeholders";
import { similarNames } from "../resources/similar-names";
import { isReference } from "../resources/validate";

export interface StrayDatasetScope {
  /** Names of the datasets the configuration declares (created by this plan or already managed). */
  declared: ReadonlySet<string>;
  /** Shared reads of one plan: the organization's datasets are listed once. */
  memo?: Map<string, Promise<unknown>>;
}

/** The attribute a kind names datasets through, for the message: its query, or its dataset. */
function attributeOf(kind: ResourceKind): string {
  if ("apl_query" in kind.attributes) return "apl_query";
  if ("query" in kind.attributes) return "query.apl";
  return "dataset";
}

export async function strayDatasetWarnings(client: OdsClient, kind: ResourceKind, values: Values, scope: StrayDatasetScope): Promise<PlanCheckProblem[]> {
  if (!kind.warnsOfStrayDatasets) return [];
  const named = namedDatasets(kind, values).filter((n) => !isReference(n) && !isPlaceholder(n));
  const unknown = named.filter((n) => !scope.declared.has(n));
  if (unknown.length === 0) return [];
  const existing = (await sharedRead(scope.memo, DATASET_TYPE_NAME, () => client.listDatasets())).map((d) => d.name);
  return unknown
    .filter((n) => !existing.includes(n))
    .map((n) => {
      const like = similarNames(n, existing);
      return {
        attribute: attributeOf(kind),
        message:
          `names the dataset "${n}", which is neither in the target organization nor created by this configuration, so it never sees an event; ` +
          (like.length > 0 ? `datasets with similar names: ${like.map((x) => `"${x}"`).join(", ")}` : "no dataset there has a similar name"),
      };
    });
}
