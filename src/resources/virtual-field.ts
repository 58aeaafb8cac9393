// ods_virtual_field: a computed field of a dataset. Names are unique within a dataset.
import { str } from "./attributes";
import { datasetName, nonEmpty } from "./checks";
import type { ResourceKind } from "./kind";
import { datasetScopedApi } from "./api-binding";

export const virtualField: ResourceKind = {
  typeName: "ods_virtual_field",
  description: "A virtual field: an expression evaluated on every event of a dataset.",
  schemaVersion: 0,
  attributes: {
    id: str("Assigned by the service.", { computed: true }),
    dataset: str("Name of the dataset.", { required: true, checks: [datasetName], forcesReplacement: true, refersTo: { typeName: "ods_dataset", attribute: "name" } }),
    name: str("Name of the field, unique within the dataset.", { required: true, checks: [nonEmpty] }),
    expression: str("Query-language expression that computes the value.", { required: true, checks: [nonEmpty] }),
    description: str("What the field means.", { optional: true, serverDefault: "" }),
    type: str("Type of the value, e.g. \"integer\" or \"string\".", { optional: true, serverDefault: "" }),
    unit: str("Unit of the value, e.g. \"ms\".", { optional: true, serverDefault: "" }),
  },
  naturalKey: ["dataset", "name"],
  changeStrategy: "update",
  creation: "create",
  deletion: "delete",
  importIdFormat: "the virtual field id",
  api: datasetScopedApi({
    list: (c, dataset) => c.listVirtualFields(dataset),
    read: (c, id) => c.getVirtualField(id),
    create: (c, body) => c.createVirtualField(body),
    update: (c, id, body) => c.updateVirtualField(id, body),
    remove: (c, id) => c.deleteVirtualField(id),
  }),
};
