import type { MessageBody, Warning } from '@app/domain';
import { AGENT_RUNTIME_PROTO, RUNTIME_GRPC_SERVICE } from '@app/contracts';
import { bigintReplacer, type GrpcServiceOptions, type ReplyAdapters } from '@app/platform';

/*
 * Replies are the HTTP bodies (the domain views), mapped to their .proto messages by the
 * platform's one reply mapper (replyMapperFor: nulls absent, bigint as strings, fields by the
 * message type). These adapters are the only places where the gRPC shape really differs from
 * the HTTP JSON; each applies wherever its message type occurs in a reply.
 */
export const AGENT_RUNTIME_REPLY_ADAPTERS: ReplyAdapters = {
  /** HTTP `{kind, message, ...extras}` -> `{kind, message, details_json?}`: the extras as one JSON object, absent when none. */
  'agent_runtime.v1.Warning': ({ kind, message, ...extras }: Warning) =>
    Object.keys(extras).length === 0
      ? { kind, message }
      : { kind, message, details_json: JSON.stringify(extras, bigintReplacer) },
  /** HTTP's string or JSON object body -> the oneof `content`: `{text}` or `{json}` (the object's JSON text). */
  'agent_runtime.v1.MessageBody': (body: MessageBody) =>
    typeof body === 'string' ? { text: body } : { json: JSON.stringify(body) },
  /** A context section's structured `content` (any JSON value) -> `content_json`, absent when null. */
  'agent_runtime.v1.ContextSection': ({ content, ...section }: { content: unknown }) => ({
    ...section,
    content_json: content === null || content === undefined ? undefined : JSON.stringify(content),
  }),
  /** An event item's `data` and `metadata` (JSON objects) -> `data_json` and `metadata_json`. */
  'agent_runtime.v1.AgentEvent': ({ data, metadata, ...event }: { data: unknown; metadata: unknown }) => ({
    ...event,
    data_json: JSON.stringify(data, bigintReplacer),
    metadata_json: JSON.stringify(metadata, bigintReplacer),
  }),
  /** GetState's `candidates` ({class: [ids]}): proto maps hold no repeated values, so each list is a WorkItemIds. */
  'agent_runtime.v1.WorkItemIds': (ids: readonly string[]) => ({ ids }),
};

/** The one service of this edge; every feature's RPC provider declares it. */
export const AGENT_RUNTIME_GRPC: GrpcServiceOptions = {
  service: RUNTIME_GRPC_SERVICE,
  proto: AGENT_RUNTIME_PROTO,
  replyAdapters: AGENT_RUNTIME_REPLY_ADAPTERS,
};
