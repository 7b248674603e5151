import { join } from 'node:path';
import type { Options } from '@grpc/proto-loader';

/**
 * The .proto the package carries (`proto/`, written by the build from the repository's contract),
 * found from this file in the sources and in dist/ alike.
 */
export const PROTO_FILE = join(__dirname, '..', '..', 'proto', 'agent_runtime.proto');

/** The service this client calls. */
export const SERVICE_NAME = 'agent_runtime.v1.AgentRuntime';

/**
 * The server's loader options (snake_case as in HTTP, int64 as decimal strings, oneof cases named);
 * scripts/generate.cjs passes the generator the same as flags, so the generated types describe
 * what this loader hands back.
 */
export const PROTO_LOADER_OPTIONS: Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};
