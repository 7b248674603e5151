import { join } from 'node:path';
import type { Server } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { protoPath as HEALTH_PROTO_PATH } from 'grpc-health-check';
import { PROTO_DIR, PROTO_LOADER_OPTIONS } from '@app/contracts';

/** The health service's file, as grpc-health-check ships it (under its own proto/ directory). */
const HEALTH_PROTO = join('health', 'v1', 'health.proto');

/**
 * Serves gRPC server reflection (grpc.reflection.v1 and v1alpha, the official @grpc/reflection)
 * for the given .proto files (relative to PROTO_DIR) and the health service, so tools such as
 * grpcurl can list and describe the services without a copy of the .proto. Off unless
 * GRPC_REFLECTION=true (see docs/api.md, gRPC); like the health service it needs no token.
 */
export function addReflectionService(server: Server, protos: readonly string[]): void {
  const includeDirs = [PROTO_DIR, HEALTH_PROTO_PATH.slice(0, -HEALTH_PROTO.length)];
  const definition = loadSync([...new Set(protos), HEALTH_PROTO], { ...PROTO_LOADER_OPTIONS, includeDirs });
  new ReflectionService(definition).addToServer(server);
}
