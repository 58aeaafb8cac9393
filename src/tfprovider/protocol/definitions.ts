// Loads our protocol declarations (proto/*.proto at the package root) with
// @grpc/proto-loader at run time: no generated code to keep in sync.
import * as path from "node:path";
import { type GrpcObject, loadPackageDefinition, type ServiceDefinition } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";

/** proto/ sits three levels up from both src/tfprovider/protocol and lib/tfprovider/protocol. */
export const PROTO_DIR = path.resolve(__dirname, "..", "..", "..", "proto");

export interface ProtocolServices {
  readonly provider: ServiceDefinition;
  readonly controller: ServiceDefinition;
  readonly stdio: ServiceDefinition;
  readonly health: ServiceDefinition;
}

function service(root: GrpcObject, dotted: string): ServiceDefinition {
  let node: unknown = root;
  for (const part of dotted.split(".")) node = (node as Record<string, unknown>)[part];
  const definition = (node as { service?: ServiceDefinition } | undefined)?.service;
  if (!definition) throw new Error(`protocol declaration ${dotted} not found in ${PROTO_DIR}`);
  return definition;
}

export function loadProtocolServices(): ProtocolServices {
  const definition = loadSync(["tfplugin6.proto", "go-plugin.proto", "grpc-health.proto"], {
    includeDirs: [PROTO_DIR],
    keepCase: true,
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const root = loadPackageDefinition(definition);
  return {
    provider: service(root, "tfplugin6.Provider"),
    controller: service(root, "plugin.GRPCController"),
    stdio: service(root, "plugin.GRPCStdio"),
    health: service(root, "grpc.health.v1.Health"),
  };
}
