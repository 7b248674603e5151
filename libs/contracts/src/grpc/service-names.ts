/**
 * Fully qualified name of the runtime's gRPC service. The gRPC health service reports it
 * (and "") as SERVING; the runtime .proto must declare exactly this package + service.
 */
export const RUNTIME_GRPC_SERVICE = 'agent_runtime.v1.AgentRuntime';
