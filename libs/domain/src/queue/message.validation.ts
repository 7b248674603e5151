import { requireAbsent } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { validationFailed } from '../shared/domain-error';
import { assertValidId } from '../shared/ids';
import { isPlainObject, type JsonObject } from '../shared/json';
import { charLength, requireTrimmedText } from '../shared/text';
import type { MessageBody } from './message.state';

/** Code points of a text body, or characters of a JSON body's serialisation. */
export const MESSAGE_BODY_MAX_LENGTH = 100_000;
/** `source`, `origin`, `event_id`, `correlation_id`: short labels. */
export const LABEL_MAX_LENGTH = 200;

function jsonCopy(value: Record<string, unknown>, field: string): JsonObject {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    throw validationFailed(field, 'not_json');
  }
  if (charLength(text) > MESSAGE_BODY_MAX_LENGTH)
    throw validationFailed(field, 'too_long', { max_length: MESSAGE_BODY_MAX_LENGTH });
  return JSON.parse(text) as JsonObject;
}

/**
 * A body is trimmed non-empty text or a plain JSON object. The object is stored as a JSON copy,
 * so state and events never share (or keep non-JSON parts of) what the caller passed.
 */
export function validateMessageBody(value: unknown, field = 'body'): MessageBody {
  if (typeof value === 'string')
    return requireTrimmedText(value, field, {
      min: 1,
      max: MESSAGE_BODY_MAX_LENGTH,
      shape: 'content',
    });
  if (!isPlainObject(value)) throw validationFailed(field, 'must_be_string_or_object');
  return jsonCopy(value, field);
}

export function optionalMessageBody(value: unknown, field = 'body'): MessageBody | null {
  return value === undefined || value === null ? null : validateMessageBody(value, field);
}

export function requireLabel(value: unknown, field: string): string {
  return requireTrimmedText(value, field, { min: 1, max: LABEL_MAX_LENGTH });
}

/** The id of a message the decision queues: required then, well-formed, and not used before. */
export function requireNewMessageId(state: AgentState, value: unknown): string {
  if (value === undefined || value === null) throw validationFailed('message_id', 'required');
  const id = assertValidId(value, 'message_id');
  requireAbsent(state.messages, id, 'message');
  return id;
}
