// The tfplugin6.Provider RPCs, mapped onto a ProviderImpl: decode the request's values
// under the schema, call the implementation, encode its answer, turn failures into
// diagnostics. No gRPC in here; provider-server.ts mounts these handlers.
//
// Message objects follow proto/tfplugin6.proto as protocol/codec.ts presents them
// (field names as declared, defaults on, enums as strings, int64 as number, bytes as Buffer).
import {
  type Diagnostic,
  diagnosticToProto,
  errorDiagnostic,
  formatPath,
  hasErrors,
  pathToProto,
  type ProtoDiagnostic,
} from "./diagnostics";
import { PreEncoded } from "./protocol/codec";
import { protocolCodec } from "./protocol/definitions";
import type { Logger } from "./protocol/log";
import type { ClientCapabilities, ProviderImpl } from "./provider-impl";
import { type CompiledSchema, type CompiledType, compileSchema } from "./schema-proto";
import type { ObjectType } from "./tf-types";
import {
  conformRawState,
  decodeDynamicValue,
  encodeDynamicValue,
  findUnknown,
  isUnknown,
  parseRawState,
  type TfObject,
  type TfValue,
  ValueError,
  type WireDynamicValue,
} from "./values";

/** A protocol message as the codec hands it over (or accepts it). */
export type Message = Record<string, unknown>;
export type RpcHandler = (request: Message) => Promise<Message>;

export type ProviderImplSource = ProviderImpl | (() => ProviderImpl | Promise<ProviderImpl>);

const SERVER_CAPABILITIES = {
  // We want PlanResourceChange on deletes too: an implementation may refuse or warn
  // (deleting a dataset deletes its data).
  plan_destroy: true,
  // Terraform may then reuse the schema it got from our first start in this command
  // instead of asking every later start (3-4 per command) for it again.
  get_provider_schema_optional: true,
  move_resource_state: false,
};

const EMPTY = Buffer.alloc(0);

/** Thrown for problems that are the user's (or Terraform's), not the implementation's. */
class RequestError extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.summary);
  }
}

function dv(v: unknown): WireDynamicValue | null {
  return (v as WireDynamicValue | null | undefined) ?? null;
}

function bytes(v: unknown): Uint8Array {
  return v instanceof Uint8Array ? v : EMPTY;
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function capabilities(v: unknown): ClientCapabilities {
  const c = (v ?? {}) as { deferral_allowed?: boolean; write_only_attributes_allowed?: boolean };
  return { deferralAllowed: c.deferral_allowed === true, writeOnlyAttributesAllowed: c.write_only_attributes_allowed === true };
}

function diagnostics(list: readonly Diagnostic[] | undefined): ProtoDiagnostic[] {
  return (list ?? []).map(diagnosticToProto);
}

function decodeObject(v: unknown, type: ObjectType, what: string): TfObject | null {
  let value: TfValue;
  try {
    value = decodeDynamicValue(dv(v), type);
  } catch (err) {
    const path = err instanceof ValueError ? err.path : undefined;
    throw new RequestError(errorDiagnostic(`Cannot read the ${what} Terraform sent`, (err as Error).message, path));
  }
  if (value === null) return null;
  if (isUnknown(value) || typeof value !== "object" || Array.isArray(value)) {
    throw new RequestError(errorDiagnostic(`The ${what} Terraform sent is not a known object`));
  }
  return value as TfObject;
}

/** Encodes an implementation's answer; `mustBeKnown` for states that get stored. */
function encodeObject(value: TfObject | null | undefined, type: ObjectType, what: string, mustBeKnown: boolean): Message {
  if (mustBeKnown) {
    const at = findUnknown(value ?? null);
    if (at) {
      throw new RequestError(
        errorDiagnostic("Provider returned an unknown value", `The ${what} still has an unknown value at ${formatPath(at) || "its root"}.`, at),
      );
    }
  }
  try {
    return encodeDynamicValue(value ?? null, type);
  } catch (err) {
    const path = err instanceof ValueError ? err.path : undefined;
    throw new RequestError(errorDiagnostic(`Provider returned an invalid ${what}`, (err as Error).message, path));
  }
}

const GET_PROVIDER_SCHEMA_RESPONSE = "tfplugin6.GetProviderSchema.Response";

/** GetProviderSchema's answer for a compiled schema. */
export function providerSchemaResponse(s: CompiledSchema): Message {
  return { ...s.proto, functions: {}, diagnostics: [], server_capabilities: SERVER_CAPABILITIES };
}

export interface ProviderRpcs {
  readonly handlers: Readonly<Record<string, RpcHandler>>;
  /** Forwards StopProvider to the implementation (also used on shutdown). */
  stop(): Promise<void>;
  /** Releases the implementation, once the server has stopped (`graceful`: by Terraform's Shutdown). */
  close(graceful?: boolean): Promise<void>;
}

/** Called after every RPC with its name and duration (profiling, see ODS_PROVIDER_STATS). */
export type RpcObserver = (rpc: string, ms: number) => void;

// Every implementation of one process has the same schema object:
// it is compiled once.
const compiledSchemas = new WeakMap<object, CompiledSchema>();

/** The implementation's schema, compiled once per schema object. */
function compiledSchemaOf(impl: ProviderImpl): CompiledSchema {
  const json = impl.schema();
  let compiled = compiledSchemas.get(json);
  if (!compiled) {
    compiled = compileSchema(json);
    compiledSchemas.set(json, compiled);
  }
  return compiled;
}

const schemaResponses = new WeakMap<CompiledSchema, PreEncoded>();

/** GetProviderSchema's answer, encoded once per compiled schema. */
function schemaResponseOf(schema: CompiledSchema): PreEncoded {
  let encoded = schemaResponses.get(schema);
  if (!encoded) {
    encoded = protocolCodec.preEncoded(GET_PROVIDER_SCHEMA_RESPONSE, providerSchemaResponse(schema));
    schemaResponses.set(schema, encoded);
  }
  return encoded;
}

/**
 * GetProviderSchema's answer for an implementation, as the server sends it: what the
 * build embeds in the provider bundle (scripts/bundle-provider.js), so that a start
 * Terraform only asks for the schema answers without loading the model.
 */
export function encodedSchemaResponse(impl: ProviderImpl): Buffer {
  return schemaResponseOf(compiledSchemaOf(impl)).bytes;
}

/**
 * `schemaAnswer`: GetProviderSchema's answer encoded ahead (encodedSchemaResponse of the
 * same implementation), sent without loading the implementation.
 */
export function createProviderRpcs(source: ProviderImplSource, log: Logger, observe?: RpcObserver, schemaAnswer?: Buffer): ProviderRpcs {
  const builtSchema = schemaAnswer ? new PreEncoded(schemaAnswer) : undefined;
  let implPromise: Promise<ProviderImpl> | undefined;
  let compiled: { impl: ProviderImpl; schema: CompiledSchema } | undefined;

  // The implementation (and with it the resource model) loads on the first call, so
  // the handshake line goes out before any of that work.
  const impl = (): Promise<ProviderImpl> =>
    (implPromise ??= Promise.resolve().then(() => {
      log.debug("loading the provider's implementation");
      return typeof source === "function" ? source() : source;
    }));

  async function schema(): Promise<{ impl: ProviderImpl; schema: CompiledSchema }> {
    if (compiled) return compiled;
    const i = await impl();
    compiled = { impl: i, schema: compiledSchemaOf(i) };
    return compiled;
  }

  async function resource(typeName: string): Promise<{ impl: ProviderImpl; t: CompiledType; schema: CompiledSchema }> {
    const s = await schema();
    const t = s.schema.resources.get(typeName);
    if (!t) throw new RequestError(errorDiagnostic(`Unknown resource type ${JSON.stringify(typeName)}`, "This provider does not declare that resource type."));
    return { impl: s.impl, t, schema: s.schema };
  }

  async function dataSource(typeName: string): Promise<{ impl: ProviderImpl; t: CompiledType }> {
    const s = await schema();
    const t = s.schema.dataSources.get(typeName);
    if (!t) throw new RequestError(errorDiagnostic(`Unknown data source ${JSON.stringify(typeName)}`, "This provider does not declare that data source."));
    return { impl: s.impl, t };
  }

  async function ephemeral(typeName: string): Promise<{ impl: ProviderImpl; t: CompiledType }> {
    const s = await schema();
    const t = s.schema.ephemeralResources.get(typeName);
    if (!t) throw new RequestError(errorDiagnostic(`Unknown ephemeral resource ${JSON.stringify(typeName)}`, "This provider does not declare that ephemeral resource."));
    return { impl: s.impl, t };
  }

  const handlers: Record<string, RpcHandler> = {
    async GetMetadata() {
      const { schema: s } = await schema();
      return {
        server_capabilities: SERVER_CAPABILITIES,
        diagnostics: [],
        resources: [...s.resources.keys()].map((type_name) => ({ type_name })),
        data_sources: [...s.dataSources.keys()].map((type_name) => ({ type_name })),
        functions: [],
        ephemeral_resources: [...s.ephemeralResources.keys()].map((type_name) => ({ type_name })),
      };
    },

    async GetProviderSchema() {
      // The largest answer (~23 kB) and always the same: encoded once per process, or at build time.
      if (builtSchema) return builtSchema as unknown as Message;
      return schemaResponseOf((await schema()).schema) as unknown as Message;
    },

    async ValidateProviderConfig(req) {
      const { impl: i, schema: s } = await schema();
      const config = decodeObject(req.config, s.provider.type, "provider configuration") ?? {};
      return { diagnostics: diagnostics(i.validateProviderConfig ? await i.validateProviderConfig(config) : []) };
    },

    async ConfigureProvider(req) {
      const { impl: i, schema: s } = await schema();
      const config = decodeObject(req.config, s.provider.type, "provider configuration") ?? {};
      const result = await i.configure({ config, terraformVersion: str(req.terraform_version), clientCapabilities: capabilities(req.client_capabilities) });
      return { diagnostics: diagnostics(result) };
    },

    async ValidateResourceConfig(req) {
      const typeName = str(req.type_name);
      const { impl: i, t } = await resource(typeName);
      const config = decodeObject(req.config, t.type, "resource configuration") ?? {};
      return { diagnostics: diagnostics(i.validateResourceConfig ? await i.validateResourceConfig(typeName, config) : []) };
    },

    async ValidateDataResourceConfig(req) {
      const typeName = str(req.type_name);
      const { impl: i, t } = await dataSource(typeName);
      const config = decodeObject(req.config, t.type, "data source configuration") ?? {};
      return { diagnostics: diagnostics(i.validateDataSourceConfig ? await i.validateDataSourceConfig(typeName, config) : []) };
    },

    async UpgradeResourceState(req) {
      const typeName = str(req.type_name);
      const { impl: i, t } = await resource(typeName);
      const version = Number(req.version ?? 0);
      const raw = (req.raw_state ?? {}) as { json?: Uint8Array; flatmap?: Record<string, string> };
      if (version > t.version) {
        throw new RequestError(
          errorDiagnostic(
            "State written by a newer provider",
            `The stored ${typeName} state has schema version ${version}; this provider knows up to ${t.version}. Upgrade terraform-provider-ods.`,
          ),
        );
      }
      if (!raw.json || raw.json.length === 0) {
        if (raw.flatmap && Object.keys(raw.flatmap).length > 0) {
          throw new RequestError(errorDiagnostic("Unsupported state format", "State written by Terraform before 0.12 (flatmap) cannot be read by this provider."));
        }
        return { upgraded_state: encodeObject(null, t.type, "upgraded state", true), diagnostics: [] };
      }
      let rawState: Record<string, unknown>;
      try {
        rawState = parseRawState(raw.json);
      } catch (err) {
        throw new RequestError(errorDiagnostic("Cannot read stored state", (err as Error).message));
      }
      if (i.upgradeResourceState) {
        const result = await i.upgradeResourceState({ typeName, version, rawState });
        return { upgraded_state: encodeObject(result.upgradedState, t.type, "upgraded state", true), diagnostics: diagnostics(result.diagnostics) };
      }
      let state: TfValue;
      try {
        state = conformRawState(rawState, t.type);
      } catch (err) {
        const path = err instanceof ValueError ? err.path : undefined;
        throw new RequestError(errorDiagnostic("Cannot read stored state", (err as Error).message, path));
      }
      return { upgraded_state: encodeObject(state as TfObject | null, t.type, "upgraded state", true), diagnostics: [] };
    },

    async ReadResource(req) {
      const typeName = str(req.type_name);
      const { impl: i, t } = await resource(typeName);
      const currentState = decodeObject(req.current_state, t.type, "current state");
      if (currentState === null) return { new_state: req.current_state, diagnostics: [], private: bytes(req.private) };
      const result = await i.readResource({ typeName, currentState, private: bytes(req.private) });
      if (hasErrors(result.diagnostics ?? [])) {
        // Keep what Terraform had: an error must not look like "the object is gone".
        return { new_state: req.current_state, diagnostics: diagnostics(result.diagnostics), private: bytes(req.private) };
      }
      return {
        // The object Terraform sent, unchanged (see ReadResourceResult): its own bytes.
        new_state: result.newState === currentState ? req.current_state : encodeObject(result.newState, t.type, "refreshed state", true),
        diagnostics: diagnostics(result.diagnostics),
        private: result.private ?? bytes(req.private),
      };
    },

    async PlanResourceChange(req) {
      const typeName = str(req.type_name);
      const { impl: i, t } = await resource(typeName);
      const proposedNewState = decodeObject(req.proposed_new_state, t.type, "proposed new state");
      const result = await i.planResourceChange({
        typeName,
        priorState: decodeObject(req.prior_state, t.type, "prior state"),
        proposedNewState,
        config: decodeObject(req.config, t.type, "resource configuration"),
        priorPrivate: bytes(req.prior_private),
        clientCapabilities: capabilities(req.client_capabilities),
      });
      return {
        planned_state: result.plannedState === proposedNewState && proposedNewState !== null ? req.proposed_new_state : encodeObject(result.plannedState, t.type, "planned state", false),
        requires_replace: (result.requiresReplace ?? []).map(pathToProto),
        planned_private: result.plannedPrivate ?? bytes(req.prior_private),
        diagnostics: diagnostics(result.diagnostics),
      };
    },

    async ApplyResourceChange(req) {
      const typeName = str(req.type_name);
      const { impl: i, t } = await resource(typeName);
      const keepPrior = { new_state: req.prior_state, private: bytes(req.planned_private) };
      try {
        const result = await i.applyResourceChange({
          typeName,
          priorState: decodeObject(req.prior_state, t.type, "prior state"),
          plannedState: decodeObject(req.planned_state, t.type, "planned state"),
          config: decodeObject(req.config, t.type, "resource configuration"),
          plannedPrivate: bytes(req.planned_private),
        });
        if (result.newState === undefined) return { ...keepPrior, diagnostics: diagnostics(result.diagnostics) };
        return {
          new_state: encodeObject(result.newState, t.type, "new state", true),
          private: result.private ?? bytes(req.planned_private),
          diagnostics: diagnostics(result.diagnostics),
        };
      } catch (err) {
        // A failure must never erase the object from state: answer the prior state.
        return { ...keepPrior, diagnostics: diagnostics([failure("ApplyResourceChange", err, log)]) };
      }
    },

    async ImportResourceState(req) {
      const typeName = str(req.type_name);
      const { impl: i } = await resource(typeName);
      if (!i.importResourceState) {
        throw new RequestError(errorDiagnostic("Import not supported", `Resource type ${typeName} cannot be imported.`));
      }
      const result = await i.importResourceState({ typeName, id: str(req.id) });
      const imported_resources: Message[] = [];
      for (const item of result.imported) {
        const { t } = await resource(item.typeName);
        imported_resources.push({ type_name: item.typeName, state: encodeObject(item.state, t.type, "imported state", true), private: item.private ?? EMPTY });
      }
      return { imported_resources, diagnostics: diagnostics(result.diagnostics) };
    },

    async ReadDataSource(req) {
      const typeName = str(req.type_name);
      const { impl: i, t } = await dataSource(typeName);
      if (!i.readDataSource) throw new RequestError(errorDiagnostic("Data source not implemented", `Data source ${typeName} cannot be read.`));
      const config = decodeObject(req.config, t.type, "data source configuration") ?? {};
      const result = await i.readDataSource({ typeName, config });
      if (hasErrors(result.diagnostics ?? [])) return { diagnostics: diagnostics(result.diagnostics) };
      return { state: encodeObject(result.state, t.type, "data source result", true), diagnostics: diagnostics(result.diagnostics) };
    },

    async MoveResourceState() {
      throw new RequestError(errorDiagnostic("Moving state between resource types is not supported by this provider"));
    },

    async ValidateEphemeralResourceConfig(req) {
      const typeName = str(req.type_name);
      const { impl: i, t } = await ephemeral(typeName);
      const config = decodeObject(req.config, t.type, "ephemeral resource configuration") ?? {};
      return { diagnostics: diagnostics(i.validateEphemeralResourceConfig ? await i.validateEphemeralResourceConfig(typeName, config) : []) };
    },

    async OpenEphemeralResource(req) {
      const typeName = str(req.type_name);
      const { impl: i, t } = await ephemeral(typeName);
      if (!i.openEphemeralResource) throw new RequestError(errorDiagnostic("Ephemeral resource not implemented", `Ephemeral resource ${typeName} cannot be opened.`));
      const config = decodeObject(req.config, t.type, "ephemeral resource configuration") ?? {};
      const result = await i.openEphemeralResource({ typeName, config });
      if (hasErrors(result.diagnostics ?? []) || !result.result) return { diagnostics: diagnostics(result.diagnostics) };
      return {
        result: encodeObject(result.result, t.type, "ephemeral resource result", true),
        ...(result.renewAt ? { renew_at: timestamp(result.renewAt) } : {}),
        ...(result.private ? { private: result.private } : {}),
        diagnostics: diagnostics(result.diagnostics),
      };
    },

    async RenewEphemeralResource(req) {
      const typeName = str(req.type_name);
      const { impl: i } = await ephemeral(typeName);
      if (!i.renewEphemeralResource) return { diagnostics: [] };
      const result = await i.renewEphemeralResource({ typeName, private: bytes(req.private) });
      return {
        ...(result.renewAt ? { renew_at: timestamp(result.renewAt) } : {}),
        ...(result.private ? { private: result.private } : {}),
        diagnostics: diagnostics(result.diagnostics),
      };
    },

    async CloseEphemeralResource(req) {
      const typeName = str(req.type_name);
      const { impl: i } = await ephemeral(typeName);
      if (!i.closeEphemeralResource) return { diagnostics: [] };
      const result = await i.closeEphemeralResource({ typeName, private: bytes(req.private) });
      return { diagnostics: diagnostics(result.diagnostics) };
    },

    async GetFunctions() {
      return { functions: {}, diagnostics: [] };
    },

    async CallFunction(req) {
      return { error: { text: `This provider declares no function ${JSON.stringify(str(req.name))}.` } };
    },
  };

  // Every handler answers; nothing escapes as a gRPC error (Terraform would report
  // those as a crashed plugin instead of showing the message).
  const guarded: Record<string, RpcHandler> = {};
  // Thousands of calls per plan: the line of each is built only when it is written.
  const debugging = log.isEnabled?.("debug") ?? true;
  for (const [rpc, handler] of Object.entries(handlers)) {
    guarded[rpc] = async (req) => {
      const started = performance.now();
      try {
        return await handler(req);
      } catch (err) {
        return { diagnostics: diagnostics([failure(rpc, err, log)]) };
      } finally {
        const ms = performance.now() - started;
        observe?.(rpc, ms);
        if (debugging) log.debug(`${rpc}${req.type_name ? ` ${String(req.type_name)}` : ""} took ${ms.toFixed(1)} ms`);
      }
    };
  }

  return {
    handlers: guarded,
    async stop() {
      const i = compiled?.impl ?? (implPromise ? await implPromise : undefined);
      await i?.stop?.();
    },
    async close(graceful = false) {
      const i = compiled?.impl ?? (implPromise ? await implPromise : undefined);
      await i?.close?.({ graceful });
    },
  };
}

/** A google.protobuf.Timestamp. */
function timestamp(at: Date): Message {
  const ms = at.getTime();
  return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 };
}

function failure(rpc: string, err: unknown, log: Logger): Diagnostic {
  if (err instanceof RequestError) return err.diagnostic;
  const message = err instanceof Error ? err.message : String(err);
  // The stack shows where, never what: it holds no values.
  log.error(`${rpc} failed: ${err instanceof Error && err.stack ? err.stack : message}`);
  return errorDiagnostic(`${rpc} failed`, message);
}
