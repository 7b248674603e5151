// Public face of @app/contracts: the wire contracts of the edges. HTTP request DTOs (validated
// by class-validator), and gRPC: the .proto files, their loader and the message types.

export * from './http/shared-fields.dto';
export * from './http/common.dto';
export * from './http/work-items.dto';
export * from './http/messages.dto';
export * from './http/tasks.dto';
export * from './http/timers.dto';
export * from './http/waiting.dto';
export * from './http/turns.dto';
export * from './http/activation.dto';
export * from './http/scheduler-queries.dto';
export * from './http/dead-letters.dto';
export * from './http/archive.dto';
export * from './http/delegation.dto';

export * from './grpc';
export * from './http/replies/index';
