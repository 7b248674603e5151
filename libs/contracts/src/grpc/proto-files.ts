import { loadSync, type Options, type PackageDefinition, type ServiceDefinition } from '@grpc/proto-loader';
import { isAbsolute, join } from 'node:path';
import { Root } from 'protobufjs';
import { repoRoot } from '@app/core';

/** `.proto` files live here; resolved from the repository root because tsc does not copy them to dist/. */
export const PROTO_DIR = join(repoRoot(), 'libs', 'contracts', 'proto');

/** One casing on the wire (snake_case field names, as in HTTP); int64 as decimal strings. */
export const PROTO_LOADER_OPTIONS: Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
};

export function protoPath(file: string): string {
  return isAbsolute(file) ? file : join(PROTO_DIR, file);
}

/** The service definition `serviceName` (fully qualified, e.g. `agent_runtime.v1.AgentRuntime`) from `file`. */
export function loadServiceDefinition(file: string, serviceName: string): ServiceDefinition {
  const definition: PackageDefinition = loadSync(protoPath(file), PROTO_LOADER_OPTIONS);
  const service = definition[serviceName];
  if (!service || !isServiceDefinition(service)) {
    throw new Error(`gRPC service ${serviceName} is not defined in ${protoPath(file)}`);
  }
  return service;
}

function isServiceDefinition(value: object): value is ServiceDefinition {
  const methods = Object.values(value);
  return (
    methods.length > 0 &&
    methods.every(
      (method) => typeof method === 'object' && method !== null && 'path' in method && 'requestStream' in method,
    )
  );
}

/**
 * The message types of `file` as protobufjs reflection (field names as written, like the
 * loader's keepCase), for what the loader's definitions do not carry: e.g. the reply mapper
 * walks a response message's declared fields by their types.
 */
export function loadProtoRoot(file: string): Root {
  const root = new Root();
  root.loadSync(protoPath(file), { keepCase: true });
  root.resolveAll();
  return root;
}
