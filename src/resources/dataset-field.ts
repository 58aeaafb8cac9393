// ods_dataset_field: metadata of a field that ingest created. It is claimed, not
// created, and forgotten, not deleted: the field belongs to the data.
import { bool, str } from "./attributes";
import { datasetName, nonEmpty } from "./checks";
import type { PlanCheck, ResourceKind } from "./kind";
import type { DatasetField, OdsClient } from "../api";
import { type ResourceApi, type WireObject, idField, readOrUndefined, wireShape } from "./api-binding";

const fieldShape = wireShape<DatasetField>("dataset field", { name: true, description: true, type: true, unit: true, hidden: true });

/** Field ids are "<dataset>/<field>": a field's own id is only unique within its dataset. */
function withFieldIdentity(dataset: string, field: WireObject): WireObject {
  return { ...field, dataset, id: `${dataset}/${String(field.name)}` };
}

/** A listed field as the service answered it, without the identity the list added. */
function asServed(field: WireObject): DatasetField {
  const { id: _id, dataset: _dataset, ...served } = field;
  return served as unknown as DatasetField;
}

function splitFieldId(id: string): [string, string] {
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1) {
    throw new Error(`expected a dataset field id "<dataset>/<field>", got "${id}"`);
  }
  return [id.slice(0, slash), id.slice(slash + 1)];
}

/** Writes the field's metadata over what the service has (a PUT replaces the whole field). */
async function writeMetadata(c: OdsClient, dataset: string, name: string, existing: DatasetField, body: WireObject): Promise<WireObject> {
  const { dataset: _d, ...fieldBody } = body;
  const updated = await c.updateDatasetField(dataset, name, { ...existing, ...fieldShape(fieldBody) });
  return withFieldIdentity(dataset, updated as unknown as WireObject);
}

function noSuchField(dataset: string, name: string): string {
  return `dataset field "${name}" does not exist in dataset "${dataset}": fields are created by ingesting events, then claimed`;
}

const datasetFieldApi: ResourceApi = {
  list: async (c, dataset) => {
    if (dataset === undefined) throw new Error("internal: a per-dataset list needs a dataset name");
    const fields = await readOrUndefined(() => c.listDatasetFields(dataset));
    return (fields ?? []).map((f) => withFieldIdentity(dataset, f as unknown as WireObject));
  },
  read: async (c, id) => {
    const [dataset, name] = splitFieldId(id);
    const field = await readOrUndefined(() => c.getDatasetField(dataset, name));
    return field ? withFieldIdentity(dataset, field as unknown as WireObject) : undefined;
  },
  // Claiming: the field must exist (ingest creates fields); then its metadata is set.
  create: async (c, body, current) => {
    const dataset = String(body.dataset);
    const name = String(body.name);
    const existing = current ? asServed(current) : await readOrUndefined(() => c.getDatasetField(dataset, name));
    if (!existing) {
      throw new Error(noSuchField(dataset, name));
    }
    return writeMetadata(c, dataset, name, existing, body);
  },
  update: async (c, id, body, current) => {
    const [dataset, name] = splitFieldId(id);
    return writeMetadata(c, dataset, name, current ? asServed(current) : await c.getDatasetField(dataset, name), body);
  },
  idOf: idField,
  // The dataset names where the field lives; the rest is the field's wire shape.
  wireKeys: { create: ["dataset", ...fieldShape.keys], update: ["dataset", ...fieldShape.keys] },
};

/**
 * A field is claimed, never created: the dataset and the field must exist (ingest makes
 * fields), checked live at plan so that nothing else is written before the claim fails.
 */
const fieldExists: PlanCheck = {
  title: "Missing dataset field",
  checks: "the field exists in its dataset (fields come with ingested events)",
  needs: ["dataset", "name"],
  answerDependsOnlyOnValues: false,
  check: async (client, values, scope) => {
    const dataset = String(values.dataset);
    const name = String(values.name);
    if (!(await readOrUndefined(() => client.getDataset(dataset)))) {
      // Terraform plans one resource at a time: the dataset may come with this apply, and
      // the claim then fails at apply with the same words if its field has no data yet.
      if (!scope.seesWholePlan) return undefined;
      return { attribute: "dataset", message: `no dataset "${dataset}" exists; a field can only be claimed in an existing dataset` };
    }
    if (!(await readOrUndefined(() => client.getDatasetField(dataset, name)))) {
      return { attribute: "name", message: noSuchField(dataset, name) };
    }
    return undefined;
  },
};

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
  scope: { attribute: "dataset", parentType: "ods_dataset" },
  creation: "claim",
  license: { fieldOf: "dataset" },
  planCheck: fieldExists,
  deletion: "forget",
  importIdFormat: "\"<dataset>/<field>\"",
  api: datasetFieldApi,
};
