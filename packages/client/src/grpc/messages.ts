import type { StreamFrame } from '../http/sse';
import type { MessageBody } from '../generated/grpc/agent_runtime/v1/MessageBody';

/** HTTP's string-or-object body (message body, trigger payload, wake hint body) as the proto's MessageBody. */
export function messageBody(value: unknown): MessageBody | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? { text: value } : { json: JSON.stringify(value) };
}

/**
 * A reply as the HTTP face sends it, nulls aside (docs/api.md, gRPC: "Replies equal the HTTP
 * bodies with null fields left out"): without the loader's presence marks (`_field`), a
 * MessageBody as its string or object, a warning's `details_json` spread into the warning.
 */
export function httpShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(httpShape);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (isMessageBody(record)) return record.content === 'text' ? record.text : JSON.parse(String(record.json));
  const shaped: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(record)) {
    if (key.startsWith('_') || inner === null) continue;
    if (key === 'details_json' && typeof inner === 'string' && 'kind' in record) {
      Object.assign(shaped, JSON.parse(inner));
      continue;
    }
    shaped[key] = httpShape(inner);
  }
  return shaped;
}

function isMessageBody(record: Record<string, unknown>): boolean {
  const content = record.content;
  return (
    (content === 'text' || content === 'json') &&
    Object.keys(record).every((key) => key === 'content' || key === 'text' || key === 'json')
  );
}

/** An `AgentEvent` as the HTTP item: `data_json` and `metadata_json` parsed back into `data` and `metadata`. */
export function eventItem(message: Record<string, unknown>): Record<string, unknown> {
  const { data_json, metadata_json, ...fields } = message;
  const item = httpShape(fields) as Record<string, unknown>;
  return {
    ...item,
    data: typeof data_json === 'string' && data_json !== '' ? JSON.parse(data_json) : {},
    metadata: typeof metadata_json === 'string' && metadata_json !== '' ? JSON.parse(metadata_json) : {},
  };
}

/** A WatchEvents message as the SSE route's frame: id = the revision, event = the type, data = the item. */
export function eventFrame(message: Record<string, unknown>): StreamFrame<Record<string, unknown>> {
  const item = eventItem(message);
  return { id: String(item.revision), event: String(item.type), data: item };
}

/** A WatchChanges message as the changes feed's frame: id = the global position, event `change`. */
export function changeFrame<T>(message: Record<string, unknown>): StreamFrame<T> {
  const change = httpShape(message) as Record<string, unknown>;
  return { id: String(change.position), event: 'change', data: change as T };
}
