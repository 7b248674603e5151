// Testing face of @app/event-store (specs and test harnesses only): the contract every
// EventStore adapter passes, and suites that run only where what they need is there.
export { runEventStoreContract } from './event-store.contract';
export type { ContractOptions, OpenAppend } from './contract-helpers';
export * from './describe-if';
export * from './eventually';
export * from './test-event-store';
export * from './fake-eventstoredb';
export * from './fed-subscription';
