// ods_virtual_field: a computed field of a dataset. Names are unique within a dataset.
import { str } from "./attributes";
import { datasetName, nonEmpty } from "./checks";
import type { PlanCheck, ResourceKind } from "./kind";
import type { VirtualFieldInput } from "../api";
import { scopedApi, wireShape } from "./api-binding";
import { compileQuery } from "./query-check";

/**
 * The expression is compiled by the service at plan time, in the context of its dataset:
 * wrapped in a query on one line, with positions mapped back into the expression.
 */
const expressionCompiles: PlanCheck = {
  title: "Invalid query",
  checks: "the service compiles the expression against its dataset",
  needs: ["dataset", "expression"],
  answerDependsOnlyOnValues: true,
  async check(client, values) {
    const { dataset, expression } = values;
    if (typeof dataset !== "string" || typeof expression !== "string" || expression.includes("\n")) return undefined;
    const prefix = `['${dataset.replace(/'/g, "\\'")}'] | extend __ods_check = `;
    const err = await compileQuery(client, `${prefix}${expression} | take 0`);
    if (!err) return undefined;
    const column = err.detail?.column !== undefined ? Math.max(1, err.detail.column - prefix.length) : undefined;
    return { attribute: "expression", line: err.detail?.line !== undefined ? 1 : undefined, column, message: err.detail?.message ?? err.serviceMessage };
  },
};

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
  scope: { attribute: "dataset", parentType: "ods_dataset" },
  creation: "create",
  license: { fieldOf: "dataset" },
  deletion: "delete",
  planCheck: expressionCompiles,
  warnsOfStrayDatasets: true,
  importIdFormat: "the virtual field id",
  api: scopedApi({
    list: (c, dataset) => c.listVirtualFields(dataset),
    read: (c, id) => c.getVirtualField(id),
    create: (c, body) => c.createVirtualField(body),
    update: (c, id, body) => c.updateVirtualField(id, body),
    remove: (c, id) => c.deleteVirtualField(id),
  }, { create: wireShape<VirtualFieldInput>("virtual field", { dataset: true, name: true, expression: true, description: true, type: true, unit: true }) }),
};
