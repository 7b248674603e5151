/**
 * Fully qualified name of the runtime's gRPC service. The gRPC health service reports it
 * (and "") as SERVING; the runtime .proto must declare exactly this package + service.
 */
export const RUNTIME_GRPC_SERVICE = 'agent_runtime.v1.AgentRuntime';

/** The .proto file of the runtime service, relative to PROTO_DIR. */
export const AGENT_RUNTIME_PROTO = 'agent_runtime.proto';

/**
 * The administration service (the twins of `/v1/admin/...` routes that change an agent): admin
 * tokens only, so it stands apart from the agents' service, whose every RPC takes roles.
 */
export const RUNTIME_ADMIN_GRPC_SERVICE = 'agent_runtime.admin.v1.AgentRuntimeAdmin';

/** The .proto file of the administration service, relative to PROTO_DIR. */
export const AGENT_RUNTIME_ADMIN_PROTO = 'agent_runtime_admin.proto';
