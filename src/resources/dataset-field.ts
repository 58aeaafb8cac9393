// ods_dataset_field: metadata of a field that ingest created. It is claimed, not
// created, and forgotten, not deleted: the field belongs to the data.
import { bool, str } from "./attributes";
import { datasetName, nonEmpty } from "./checks";
import type { ResourceKind } from "./kind";
import { datasetFieldApi } from "./api-binding";

export const datasetField: ResourceKind = {
  typeName: "ods_dataset_field",
  description: "Metadata of an existing dataset field (description, unit, hidden). Removing it from the config stops managing it.",
  schemaVersion: 0,
  attributes: {
    id: str("\"<dataset>/<field>\".", { computed: true }),
    dataset: str("Name of the dataset.", { required: true, checks: [datasetName], forcesReplacement: true, refersTo: { typeName: "ods_dataset", attribute: "name" } }),
    name: str("Name of the field.", { required: true, checks: [nonEmpty], forcesReplacement: true }),
    description: str("What the field means.", { optional: true, serverDefault: "" }),
    unit: str("Unit, e.g. \"ms\" or \"decbytes\".", { optional: true, serverDefault: "" }),
    hidden: bool("Hide the field in the query builder.", { optional: true, serverDefault: false }),
    type: str("Type inferred from the data.", { computed: true }),
  },
  naturalKey: ["dataset", "name"],
  changeStrategy: "update",
  creation: "claim",
  deletion: "forget",
  importIdFormat: "\"<dataset>/<field>\"",
  api: datasetFieldApi,
};
