// Public face of @app/core: what the libraries above the domain and the event store share.

// The agent stream: its name, the decider and snapshot ports, the domain's decider, the one fold.
export * from './agents/agent-stream';
export * from './agents/agent-decider';
export * from './agents/snapshot-store';
export * from './agents/agent-state-decider';
export * from './agents/agent-directory';
export * from './agents/agent-fold';

// Event schema evolution on the read path.
export * from './events/upcaster-registry';
export * from './events/upcasters';

// Ports the platform implements, the wire error vocabulary, the repository's paths.
export * from './ports/clock';
export * from './ports/logger';
export * from './ports/metrics';
export * from './ports/tracing';
export * from './errors/error-codes';
export * from './paths';
