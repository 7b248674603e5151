import {
  isAgentLifecycleEvent,
  isArchiveEvent,
  isControlEvent,
  isDelegationEvent,
  isFocusEvent,
  isQueueEvent,
  isSchedulerEvent,
  isTaskEvent,
  isTimerEvent,
  isTurnEvent,
  isWaitingIntentEvent,
  isWakeHintEvent,
  isWorkItemEvent,
} from '@app/domain';
import { isPostgresUnavailable, type StoredEvent } from '@app/event-store';

/**
 * Poison events: an event of an agent stream that a projection runner cannot apply. The runner
 * never skips one silently (the read models would disagree with the store) and never spins on
 * it: it records a dead letter and parks the event's agent only (ADR 0015) until an operator
 * retries or skips it.
 */

const GUARDS = [
  isAgentLifecycleEvent,
  isWorkItemEvent,
  isFocusEvent,
  isWaitingIntentEvent,
  isTaskEvent,
  isTimerEvent,
  isWakeHintEvent,
  isQueueEvent,
  isControlEvent,
  isTurnEvent,
  isSchedulerEvent,
  isArchiveEvent,
  isDelegationEvent,
];

/**
 * Types the domain's `evolve` folds (the same slices it routes to). Its fold ignores any other
 * type, which is right for the command side but would leave a read model silently incomplete:
 * an unknown type in an agent stream (written by a newer runtime, or by a tool) stalls the runner.
 */
export function isKnownAgentEventType(type: string): boolean {
  const event = { type };
  return GUARDS.some((guard) => guard(event));
}

/** Raised for an event the runner refuses before folding it. */
export class UndecodableEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UndecodableEventError';
  }
}

/** The checks the runner makes before the fold (which catches the rest by throwing). */
export function assertDecodable(event: StoredEvent, isKnownType: (type: string) => boolean): void {
  if (!isKnownType(event.type)) throw new UndecodableEventError(`unknown event type ${JSON.stringify(event.type)}`);
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new UndecodableEventError(
      `event data is not a JSON object (${data === null ? 'null' : Array.isArray(data) ? 'array' : typeof data})`,
    );
  }
}

/** One dead letter: where the runner stopped and why. */
export interface DeadLetter {
  projection: string;
  position: bigint;
  event_id: string;
  stream: string;
  revision: bigint;
  type: string;
  error: string;
  attempts: number;
}

/**
 * A runner stopped at a poison event; `letter` says which (and is stored in projection_dead_letters).
 * Since ADR 0015 the runner parks the agent instead; an apply hook may still raise it (the loop
 * then waits with a doubling delay before the next attempt).
 */
export class ProjectionStalledError extends Error {
  readonly code = 'projection_stalled' as const;
  constructor(readonly letter: DeadLetter) {
    super(
      `projection ${letter.projection} stalled at position ${letter.position} (${letter.stream}@${letter.revision}, ${letter.type}): ${letter.error}`,
    );
    this.name = 'ProjectionStalledError';
  }
}

/**
 * SQLSTATE classes that say "these rows are refused" rather than "not now": data exceptions (22),
 * integrity violations (23), a statement the database cannot run (42), program limits (54),
 * a PL/pgSQL raise (P0). Connection (08), transaction rollback (40), resources (53, 55), operator
 * intervention (57) and system errors (58, XX) are transient.
 */
const REFUSAL_CLASSES = new Set(['22', '23', '42', '54', 'P0']);

/**
 * True when a batch failed because of what it writes (so the same batch fails again), false for
 * an outage or a conflict worth retrying as is. Errors without a SQLSTATE come from our own code
 * (a projector's row the writer cannot serialise): deterministic too, unless they name a socket.
 */
export function isRowRefusal(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, name } = error as { code?: unknown; name?: unknown };
  if (name === 'StoreUnavailableError' || name === 'AggregateError') return false;
  // An outage is the event store's own rule (socket codes, connection SQLSTATEs, pg's messages).
  if (isPostgresUnavailable(error)) return false;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return REFUSAL_CLASSES.has(code.slice(0, 2));
  return error instanceof Error && code === undefined;
}

export function describeError(error: unknown): string {
  // Postgres cannot store NUL in text: a message quoting one must not make the letter itself refused.
  const text = (error instanceof Error ? `${error.name}: ${error.message}` : String(error))
    .split('\u0000')
    .join('\\u0000');
  return text.length > 2000 ? `${text.slice(0, 2000)}...` : text;
}
