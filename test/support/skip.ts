// describeIf lives in the event store's testing face, where the libraries' own specs reach it
// too (a library never imports test/).
export { describeIf, dockerAvailable } from '@app/event-store/testing';
