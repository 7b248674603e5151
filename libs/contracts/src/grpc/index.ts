export * from './proto-files';
export * from './service-names';
export * from './agent-runtime.rpc';
