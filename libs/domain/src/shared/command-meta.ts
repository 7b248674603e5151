import { DomainError } from './domain-error';
import { parseRfc3339 } from './time';

/** Carried by every command: time and identity are inputs, never read from the environment. */
export type CommandMeta = {
  /** RFC 3339 time of the command, from the app's clock. */
  now: string;
  /** Idempotency key; lands in the events' envelope metadata, not in event data. */
  command_id: string;
  actor?: string;
};

/** The meta of a command, its `now` in the UTC form of parseRfc3339 (the app's clock writes it so already). */
export function assertCommandMeta(meta: CommandMeta | undefined): CommandMeta {
  const now = meta == null ? null : parseRfc3339(meta.now);
  if (meta == null || now === null) {
    throw new DomainError('validation_failed', { field: 'meta.now', rule: 'invalid_timestamp' });
  }
  if (typeof meta.command_id !== 'string' || meta.command_id.length === 0) {
    throw new DomainError('validation_failed', { field: 'meta.command_id', rule: 'required' });
  }
  return now === meta.now ? meta : { ...meta, now };
}
