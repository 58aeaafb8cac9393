// What a resource kind or a data source is, as the engines see it. A kind's whole
// behaviour is readable in its own file: attributes, identity, how it is created,
// changed and deleted, and how the service is called.
import type { Attributes } from "./attributes";
import type { ResourceApi, DataSourceApi } from "./api-binding";

/** Plain values keyed by snake_case attribute name, as in a synthesized stack. */
export type Values = Record<string, unknown>;

/** One problem with a declared value; `path` is the attribute path from the resource. */
export interface ValidationIssue {
  path: (string | number)[];
  message: string;
}

export interface ResourceKind {
  /** Terraform type name, e.g. `ods_notifier`. */
  typeName: string;
  description: string;
  /** Bumped when the stored shape changes; old states are upgraded. */
  schemaVersion: number;
  attributes: Attributes;
  /**
   * Attributes that identify a live object without an id; adoption looks objects up by
   * them when state has no entry, so a lost state file never creates duplicates.
   */
  naturalKey: readonly string[];
  /**
   * How a change that does not force replacement is applied: `update` calls the
   * service's PUT; `rotate` issues a new object (a token's regenerate) and retires the
   * old one after a grace period, since tokens cannot be updated.
   */
  changeStrategy: "update" | "rotate";
  /** `claim`: the object exists already (a dataset field) and is taken over, not created. */
  creation: "create" | "claim";
  /** `forget`: removing it from the config stops managing it; `guarded`: refused unless `allow_destroy`. */
  deletion: "delete" | "forget" | "guarded";
  /** Cross-attribute rules (e.g. a notifier needs a channel); attribute rules live on attributes. */
  validate?: (values: Values) => ValidationIssue[];
  api: ResourceApi;
  /** How `ods import` / `terraform import` ids look, for messages. */
  importIdFormat: string;
}

export interface DataSourceKind {
  typeName: string;
  description: string;
  attributes: Attributes;
  validate?: (values: Values) => ValidationIssue[];
  api: DataSourceApi;
}
