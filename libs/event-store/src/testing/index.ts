// Testing face of @app/event-store (specs and test harnesses only): the contract every
// EventStore adapter passes, and suites that run only where what they need is there.
export { runEventStoreContract, expectWrongRevision, type ContractOptions, type OpenAppend } from './event-store.contract';
export * from './describe-if';
