// The plugin protocol's gRPC services, from the precompiled descriptor (descriptor.ts,
// generated from proto/*.proto by scripts/protocol-descriptor.js) and our own codec:
// nothing is parsed or code-generated at start-up, and no file is read (the provider
// may run as one bundled file).
import type { MethodDefinition, ServiceDefinition } from "@grpc/grpc-js";
import { Codec, type PreEncoded, type ProtoMessage } from "./codec";
import { DESCRIPTOR } from "./descriptor";

export interface ProtocolServices {
  readonly provider: ServiceDefinition;
  readonly controller: ServiceDefinition;
  readonly stdio: ServiceDefinition;
  readonly health: ServiceDefinition;
}

/** The one codec of the protocol's messages. */
export const protocolCodec = new Codec(DESCRIPTOR);

function service(fullName: string): ServiceDefinition {
  const methods = DESCRIPTOR.services[fullName];
  if (!methods) throw new Error(`protocol service ${fullName} is not in the descriptor`);
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
