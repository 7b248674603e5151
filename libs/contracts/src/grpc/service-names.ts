/**
 * Fully qualified name of the runtime's gRPC service. The gRPC health service reports it
 * (and "") as SERVING; the runtime .proto must declare exactly this package + service.
 */
export const RUNTIME_GRPC_SERVICE = 'agent_runtime.v1.AgentRuntime';

/** The .proto file of the runtime service, relative to PROTO_DIR. */
export const AGENT_RUNTIME_PROTO = 'agent_runtime.proto';
