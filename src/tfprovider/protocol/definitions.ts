// The plugin protocol's gRPC services for grpc-js: paths and message types from the
// generated service table (generated/services.ts), messages through codec.ts. Nothing is
// parsed or generated at start-up, and no file is read (the provider may run as one
// bundled file).
import type { MethodDefinition, ServiceDefinition } from "@grpc/grpc-js";
import { Codec, type PreEncoded, type ProtoMessage } from "./codec";
import { SERVICES } from "./generated/services";

export interface ProtocolServices {
  readonly provider: ServiceDefinition;
  readonly controller: ServiceDefinition;
  readonly stdio: ServiceDefinition;
  readonly health: ServiceDefinition;
}

/** The one codec of the protocol's messages. */
export const protocolCodec = new Codec();

function service(fullName: string): ServiceDefinition {
  const methods = SERVICES[fullName];
  if (!methods) throw new Error(`protocol service ${fullName} is not in the generated service table`);
  const definition: Record<string, MethodDefinition<ProtoMessage, ProtoMessage | PreEncoded>> = {};
  for (const [name, m] of Object.entries(methods)) {
    definition[name] = {
      path: `/${fullName}/${name}`,
      requestStream: false,
      responseStream: m.responseStream === true,
      requestSerialize: (msg) => protocolCodec.encode(m.request, msg),
      requestDeserialize: (buf) => protocolCodec.decode(m.request, buf),
      responseSerialize: (msg) => protocolCodec.encode(m.response, msg),
      responseDeserialize: (buf) => protocolCodec.decode(m.response, buf),
      originalName: name.charAt(0).toLowerCase() + name.slice(1),
    };
  }
  return definition as ServiceDefinition;
}

let services: ProtocolServices | undefined;

export function loadProtocolServices(): ProtocolServices {
  return (services ??= {
    provider: service("tfplugin6.Provider"),
    controller: service("plugin.GRPCController"),
    stdio: service("plugin.GRPCStdio"),
    health: service("grpc.health.v1.Health"),
  });
}
