import {
  fromJsonPosition,
  fromJsonRevision,
  toJsonPosition,
  toJsonRevision,
  type EventMetadata,
  type StoredEvent,
} from '@app/event-store';

/**
 * A stored event as one JSON line of an export (`events.jsonl`) or a fixture sample.
 * NOTE: stored format (docs/decisions/0007): revision and position are decimal strings.
 */
export interface StoredEventJson {
  id: string;
  stream: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  revision: string;
  position: string;
  recorded_at: string;
}

/** A file that does not hold stored events in this format. */
export class StoredEventFormatError extends Error {
  constructor(
    readonly where: string,
    problem: string,
  ) {
    super(`${where}: ${problem}`);
    this.name = 'StoredEventFormatError';
  }
}

export function toStoredEventJson(event: StoredEvent): StoredEventJson {
  return {
    id: event.id,
    stream: event.stream,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    revision: toJsonRevision(event.revision),
    position: toJsonPosition(event.position),
    recorded_at: event.recorded_at,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses and checks one stored event; `where` names it in errors (`events.jsonl:3`). */
export function fromStoredEventJson(value: unknown, where: string): StoredEvent {
  if (!isObject(value)) throw new StoredEventFormatError(where, 'not a JSON object');
  const text = (field: string): string => {
    if (typeof value[field] !== 'string' || value[field] === '')
      throw new StoredEventFormatError(where, `${field} must be a non-empty string`);
    return value[field] as string;
  };
  const decimal = (field: string, parse: (v: string) => bigint): bigint => {
    try {
      return parse(text(field));
    } catch (error) {
      throw error instanceof StoredEventFormatError
        ? error
        : new StoredEventFormatError(where, `${field} must be a decimal string`);
    }
  };
  if (!UUID.test(text('id'))) throw new StoredEventFormatError(where, 'id must be a UUID');
  if (!isObject(value.data)) throw new StoredEventFormatError(where, 'data must be an object');
  if (!isObject(value.metadata)) throw new StoredEventFormatError(where, 'metadata must be an object');
  return {
    id: text('id'),
    stream: text('stream'),
    type: text('type'),
    data: value.data,
    metadata: value.metadata as EventMetadata,
    revision: decimal('revision', fromJsonRevision),
    position: decimal('position', fromJsonPosition),
    recorded_at: text('recorded_at'),
  };
}
