// The contract between the generic plugin server (provider-server.ts) and whatever
// implements the resources (the ODS resource model adapter, or a test double).
//
// The server owns the protocol: gRPC, TLS, the handshake, msgpack/JSON codecs, schema
// conversion, diagnostics. The implementation sees decoded values only:
//   - every state/config is a TfObject (see values.ts) with EVERY schema attribute
//     present, null when unset; `null` instead of an object means "no object" (the
//     prior state of a create, the planned state of a delete);
//   - values not yet known (plan time) are the `Unknown` marker: test with isUnknown();
//     return UNKNOWN for computed attributes decided at apply;
//   - write-only attributes carry their value only in `config`; whatever is returned
//     for them is replaced by null (Terraform never stores them);
//   - a method may throw: the server turns the error into an error diagnostic
//     (its message is shown to the user, so never put a secret into it).
// Every method may return a value or a promise of one.
import type { AttributePath, Diagnostic } from "./diagnostics";
import type { ProviderSchemaJson } from "./schema-json";
import type { TfObject } from "./values";

export type Awaitable<T> = T | Promise<T>;

/** Terraform's optional protocol features (from its requests). */
export interface ClientCapabilities {
  /** Terraform accepts deferred actions (we never defer). */
  readonly deferralAllowed: boolean;
  /** Terraform understands write_only attributes (1.11: true). */
  readonly writeOnlyAttributesAllowed: boolean;
}

export interface ConfigureRequest {
  /** The provider block's values (may contain unknowns when it depends on resources). */
  readonly config: TfObject;
  readonly terraformVersion: string;
  readonly clientCapabilities: ClientCapabilities;
}

export interface UpgradeStateRequest {
  readonly typeName: string;
  /** The schema version the state was written with (compare with the current one). */
  readonly version: number;
  /** The stored state JSON as parsed, under the schema of that version. */
  readonly rawState: Readonly<Record<string, unknown>>;
}
export interface UpgradeStateResult {
  /** The same object under the current schema. */
  readonly upgradedState: TfObject | null;
  readonly diagnostics?: readonly Diagnostic[];
}

export interface ReadResourceRequest {
  readonly typeName: string;
  /** The state after upgrade: what Terraform believes the object looks like. */
  readonly currentState: TfObject;
  /** Opaque bytes this implementation returned last time (empty: none). */
  readonly private: Uint8Array;
}
export interface ReadResourceResult {
  /**
   * The object as it is now; null: it no longer exists (Terraform plans to create it).
   * The request's `currentState` object itself, unmodified, says "unchanged": the server
   * then answers with the bytes Terraform sent instead of encoding them again.
   */
  readonly newState: TfObject | null;
  readonly diagnostics?: readonly Diagnostic[];
  /** New private bytes; undefined keeps the ones Terraform sent. */
  readonly private?: Uint8Array;
}

export interface PlanResourceRequest {
  readonly typeName: string;
  /** null: the object does not exist yet (create). */
  readonly priorState: TfObject | null;
  /** Terraform's merge of config and prior state; null: the object is being destroyed. */
  readonly proposedNewState: TfObject | null;
  /** The resource block's values; null on destroy. */
  readonly config: TfObject | null;
  readonly priorPrivate: Uint8Array;
  readonly clientCapabilities: ClientCapabilities;
}
export interface PlanResourceResult {
  /**
   * What the object will look like after apply: attributes set in config keep the config
   * value; computed attributes may be UNKNOWN. null on destroy. The request's
   * `proposedNewState` object itself, unmodified, is answered with Terraform's own bytes.
   */
  readonly plannedState: TfObject | null;
  /** Attributes whose change forces delete-and-recreate. */
  readonly requiresReplace?: readonly AttributePath[];
  readonly diagnostics?: readonly Diagnostic[];
  /** Private bytes handed to apply; undefined keeps priorPrivate. */
  readonly plannedPrivate?: Uint8Array;
}

export interface ApplyResourceRequest {
  readonly typeName: string;
  /** null: create. */
  readonly priorState: TfObject | null;
  /** null: destroy. */
  readonly plannedState: TfObject | null;
  /** null on destroy. Holds the write-only values. */
  readonly config: TfObject | null;
  readonly plannedPrivate: Uint8Array;
}
export interface ApplyResourceResult {
  /**
   * The object after the change: every known planned value unchanged, no unknowns left;
   * null after a destroy. Leave undefined when the change failed before touching the
   * remote object: the server then keeps the prior state (null for a failed create).
   */
  readonly newState?: TfObject | null;
  readonly diagnostics?: readonly Diagnostic[];
  /** New private bytes; undefined keeps plannedPrivate. */
  readonly private?: Uint8Array;
}

export interface ImportResourceRequest {
  readonly typeName: string;
  /** What the user wrote in `terraform import ADDR ID` or an import block's id. */
  readonly id: string;
}
export interface ImportedResource {
  readonly typeName: string;
  /** Enough for readResource to find the object (Terraform calls it next). */
  readonly state: TfObject;
  readonly private?: Uint8Array;
}
export interface ImportResourceResult {
  readonly imported: readonly ImportedResource[];
  readonly diagnostics?: readonly Diagnostic[];
}

export interface ReadDataSourceRequest {
  readonly typeName: string;
  /** The data block's values; computed attributes are null. */
  readonly config: TfObject;
}
export interface ReadDataSourceResult {
  /** The config with computed attributes filled in; wholly known. */
  readonly state: TfObject | null;
  readonly diagnostics?: readonly Diagnostic[];
}

export interface OpenEphemeralRequest {
  readonly typeName: string;
  /** The ephemeral block's values; wholly known (Terraform does not open it otherwise). */
  readonly config: TfObject;
}
export interface OpenEphemeralResult {
  /** The config with computed attributes filled in; wholly known. Never stored by Terraform. */
  readonly result?: TfObject;
  /** When Terraform should call renew, if it still runs then; undefined: never. */
  readonly renewAt?: Date;
  /** Opaque bytes handed to renew and close (say which object to close). */
  readonly private?: Uint8Array;
  readonly diagnostics?: readonly Diagnostic[];
}
export interface RenewEphemeralRequest {
  readonly typeName: string;
  readonly private: Uint8Array;
}
export interface RenewEphemeralResult {
  readonly renewAt?: Date;
  readonly private?: Uint8Array;
  readonly diagnostics?: readonly Diagnostic[];
}
export interface CloseEphemeralRequest {
  readonly typeName: string;
  readonly private: Uint8Array;
}

export interface ProviderImpl {
  /** The schema, `terraform providers schema -json` shape for this one provider. Called once. */
  schema(): ProviderSchemaJson;

  /** Checks the provider block before configure (values may be unknown). */
  validateProviderConfig?(config: TfObject): Awaitable<readonly Diagnostic[]>;
  /** Called once per process before any read/plan/apply/import. */
  configure(request: ConfigureRequest): Awaitable<readonly Diagnostic[]>;

  /** Custom validation beyond the schema; config may contain unknowns (tolerate them). */
  validateResourceConfig?(typeName: string, config: TfObject): Awaitable<readonly Diagnostic[]>;
  validateDataSourceConfig?(typeName: string, config: TfObject): Awaitable<readonly Diagnostic[]>;

  /**
   * Migrates stored state to the current schema. When absent, the server reads the stored
   * JSON under the current schema (dropping removed attributes, nulling new ones).
   */
  upgradeResourceState?(request: UpgradeStateRequest): Awaitable<UpgradeStateResult>;

  readResource(request: ReadResourceRequest): Awaitable<ReadResourceResult>;
  planResourceChange(request: PlanResourceRequest): Awaitable<PlanResourceResult>;
  applyResourceChange(request: ApplyResourceRequest): Awaitable<ApplyResourceResult>;
  /** When absent, import answers "not supported" for every type. */
  importResourceState?(request: ImportResourceRequest): Awaitable<ImportResourceResult>;
  readDataSource?(request: ReadDataSourceRequest): Awaitable<ReadDataSourceResult>;

  /** Ephemeral resources (the schema's ephemeral_resource_schemas); absent: none are served. */
  validateEphemeralResourceConfig?(typeName: string, config: TfObject): Awaitable<readonly Diagnostic[]>;
  openEphemeralResource?(request: OpenEphemeralRequest): Awaitable<OpenEphemeralResult>;
  renewEphemeralResource?(request: RenewEphemeralRequest): Awaitable<RenewEphemeralResult>;
  closeEphemeralResource?(request: CloseEphemeralRequest): Awaitable<{ readonly diagnostics?: readonly Diagnostic[] }>;

  /** Terraform asked to stop (Ctrl-C): cancel in-flight calls soon, let them fail cleanly. */
  stop?(): Awaitable<void>;
  /**
   * The server has stopped (a process started in-process by a test or tool may go on):
   * release connections and credentials. `graceful`: Terraform ended it with its Shutdown
   * call, having finished its walk; otherwise Terraform may be gone.
   */
  close?(how?: { graceful?: boolean }): Awaitable<void>;
}
