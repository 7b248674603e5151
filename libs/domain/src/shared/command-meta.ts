import { DomainError } from './domain-error';
import { isRfc3339 } from './time';

/** Carried by every command: time and identity are inputs, never read from the environment. */
export type CommandMeta = {
  /** RFC 3339 time of the command, from the app's clock. */
  now: string;
  /** Idempotency key; lands in the events' envelope metadata, not in event data. */
  command_id: string;
  actor?: string;
};

export function assertCommandMeta(meta: CommandMeta | undefined): CommandMeta {
  if (meta == null || !isRfc3339(meta.now)) {
    throw new DomainError('validation_failed', { field: 'meta.now', rule: 'invalid_timestamp' });
  }
  if (typeof meta.command_id !== 'string' || meta.command_id.length === 0) {
    throw new DomainError('validation_failed', { field: 'meta.command_id', rule: 'required' });
  }
  return meta;
}
