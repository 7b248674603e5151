export { RuntimeClient, type ChangeFrameData } from './runtime-client';
export type { CommandOptions, ReadOptions, RuntimeClientOptions } from './client-base';
export {
  ERROR_STATUS,
  isRuntimeErrorCode,
  RuntimeApiError,
  RuntimeNetworkError,
  UnsupportedOperationError,
  type RuntimeErrorCode,
} from './errors';
export { DEFAULT_RETRY_POLICY, isRetryable, type RetryInfo, type RetryPolicy } from './retry';
export type { StreamFrame, StreamOptions } from './http/sse';
export type { CallContext, Operation, Transport } from './operation';
export type * from './types';
export * from './host';
export type { paths as HttpPaths, components as HttpComponents } from './generated/openapi';
