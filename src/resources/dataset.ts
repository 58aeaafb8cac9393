// ods_dataset: deleting a dataset deletes its events, so it is refused unless the
// config says allow_destroy.
import { bool, str } from "./attributes";
import { datasetName } from "./checks";
import type { ResourceKind } from "./kind";
import type { DatasetInput, DatasetUpdate } from "../api";
import { type WireObject, organizationApi, wireShape } from "./api-binding";

const createShape = wireShape<DatasetInput>("dataset", { name: true, description: true });
const updateShape = wireShape<DatasetUpdate>("dataset update", { description: true });

/** The name cannot change in place (it is the id): an update sends the description alone. */
function withoutName({ name: _name, ...rest }: WireObject): WireObject {
  return rest;
}

export const dataset: ResourceKind = {
  typeName: "ods_dataset",
  description: "A dataset. Deleting it deletes its data: refused unless allow_destroy is true.",
  schemaVersion: 0,
  attributes: {
    id: str("The dataset's id (its name).", { computed: true }),
    name: str("Unique name: letters, digits, \"-\", \"_\" and \".\".", { required: true, checks: [datasetName], forcesReplacement: true }),
    description: str("What the dataset holds.", { optional: true, serverDefault: "" }),
    allow_destroy: bool("Allow deleting the dataset and all of its events.", { optional: true, engineOnly: true, default: false }),
    created: str("When the dataset was created.", { computed: true, timestamp: true }),
    who: str("Who created it.", { computed: true }),
  },
  naturalKey: ["name"],
  creation: "create",
  deletion: "delete",
  guard: { attribute: "allow_destroy", consequence: "deletes all of its data" },
  license: { counts: "maxDatasets" },
  importIdFormat: "the dataset name",
  api: {
    ...organizationApi(
      {
        list: (c) => c.listDatasets(),
        read: (c, id) => c.getDataset(id),
        create: (c, body) => c.createDataset(body),
        update: (c, id, body) => c.updateDataset(id, body),
        remove: (c, id) => c.deleteDataset(id),
      },
      { create: createShape, update: updateShape },
    ),
    shapeBody: (body, operation) => (operation === "update" ? withoutName(body) : body),
  },
};
