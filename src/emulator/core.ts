// The state every route works on: the durable store, the events, and lookups that
// several kinds share (datasets, their fields and virtual fields, users).
import { randomBytes } from "node:crypto";
import { notFound } from "./errors";
import type { EventStore } from "./event-store";
import {
  fieldKey,
  type DatasetRecord,
  type EmulatorState,
  type FieldRecord,
  type OrgRecord,
  type UserRecord,
  type VirtualFieldRecord,
} from "./model";
import type { QueryDataset } from "./query/types";
import type { Store } from "./store";
import { RealClock, type Clock } from "./monitors/clock";

/** Opaque unique ids: a kind prefix and 16 random hex digits (`ntf_3f9c...`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString("hex")}`;
}

export class EmulatorCore {
  constructor(
    readonly store: Store<EmulatorState>,
    readonly events: EventStore,
    readonly orgId: string,
    readonly clock: Clock = new RealClock(),
  ) {}

  get state(): EmulatorState {
    return this.store.state;
  }

  get org(): OrgRecord {
    const org = this.state.orgs.get(this.orgId);
    if (!org) throw new Error(`internal: organization ${this.orgId} is missing`);
    return org;
  }

  dataset(name: string): DatasetRecord {
    const dataset = this.state.datasets.get(name);
    if (!dataset) throw notFound("dataset", name);
    return dataset;
  }

  user(id: string): UserRecord {
    const user = this.state.users.get(id);
    if (!user) throw notFound("user", id);
    return user;
  }

  /** A dataset's fields in the order they were first seen. */
  fieldsOf(dataset: string): FieldRecord[] {
    const prefix = fieldKey(dataset, "");
    const out: FieldRecord[] = [];
    for (const [key, field] of this.state.fields) if (key.startsWith(prefix)) out.push(field);
    return out;
  }

  virtualFieldsOf(dataset: string): VirtualFieldRecord[] {
    return [...this.state.vfields.values()].filter((v) => v.dataset === dataset);
  }

  /** What the query engine reads of a dataset, or undefined when there is none. */
  queryDataset(name: string): QueryDataset | undefined {
    const dataset = this.state.datasets.get(name);
    if (!dataset) return undefined;
    return {
      name,
      events: this.events.events(dataset.storageKey),
      fields: this.fieldsOf(name).map(({ name: n, type, unit, description, hidden }) => ({ name: n, type, unit, description, hidden })),
      virtualFields: this.virtualFieldsOf(name).map(({ name: n, expression, type, unit, description }) => ({ name: n, expression, type, unit, description })),
    };
  }
}
