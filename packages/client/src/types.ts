import type { components, paths } from './generated/openapi';

/*
 * Request and reply types, read off the generated OpenAPI types (src/generated/openapi.ts,
 * `npm run client:generate`), never written by hand. A reply the document does not describe
 * yet is a JsonObject; it becomes precise when the document does and the types are regenerated.
 */

/** A JSON object whose shape the document does not state. */
export type JsonObject = { [key: string]: any };

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Route = keyof paths;
type OperationOf<P extends Route, M extends Method> = NonNullable<paths[P][M]>;

/** The JSON body of a route. */
export type RequestBody<P extends Route, M extends Method> =
  OperationOf<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The query parameters of a route. */
export type QueryOf<P extends Route, M extends Method> =
  OperationOf<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type JsonContent<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type SuccessBody<R> = R extends { 200: infer S }
  ? JsonContent<S>
  : R extends { 201: infer S }
    ? JsonContent<S>
    : R extends { 202: infer S }
      ? JsonContent<S>
      : never;
type OrJson<T> = [T] extends [never] ? JsonObject : T;

/** The success reply of a route. */
export type Reply<P extends Route, M extends Method> = OrJson<
  OperationOf<P, M> extends { responses: infer R } ? SuccessBody<R> : never
>;

/** What every command reply carries (docs/api.md, Commands): the stream revision, the store position, warnings. */
export interface CommandReplyFields {
  revision?: string;
  /** The store's commit position of the command's last event (decimal string), once the server sends it. */
  position?: string;
  warnings?: Warning[];
}
export type CommandReply<P extends Route, M extends Method> = Reply<P, M> & CommandReplyFields;

/** A reply warning: `{kind, message, ...extras}`. */
export interface Warning {
  kind: string;
  message: string;
  [extra: string]: unknown;
}

type Schemas = components['schemas'];
export type RegisterAgentBody = Schemas['RegisterAgentDto'];
export type CreateWorkItemBody = Schemas['CreateWorkItemDto'];
export type UpdateWorkItemBody = Schemas['UpdateWorkItemDto'];
export type PickWorkItemBody = Schemas['PickWorkItemDto'];
export type CompleteWorkItemBody = Schemas['CompleteWorkItemDto'];
export type WaitForBody = Schemas['WaitForDto'];
export type CancelWaitingIntentBody = Schemas['CancelWaitingIntentDto'];
export type TriggerWaitingIntentBody = Schemas['TriggerWaitingIntentDto'];
export type CallbackBody = Schemas['CallbackDto'];
export type CreateTimerBody = Schemas['CreateTimerDto'];
export type WakeHintBody = Schemas['WakeHintDto'];
export type CreateTaskBody = Schemas['CreateTaskDto'];
export type SpawnAgentBody = Schemas['SpawnAgentDto'];
export type UpdateTaskStatusBody = Schemas['UpdateTaskStatusDto'];
export type TaskHeartbeatBody = Schemas['TaskHeartbeatDto'];
export type EnqueueMessageBody = Schemas['EnqueueMessageDto'];
export type ControlBody = Schemas['ControlDto'];
export type ActivationBody = Schemas['ActivationDto'];
export type TurnHeartbeatBody = Schemas['HeartbeatDto'];
export type RecordRoundBody = Schemas['RecordRoundDto'];
export type TurnTerminalBody = Schemas['TurnTerminalDto'];
