import { SetMetadata } from '@nestjs/common';
import { fromJsonPosition } from '@app/event-store';
import { ApiError } from '@app/core';
import type { ProjectionLag, ReadBarrier } from '@app/read-models';

/** MIN_POSITION_WAIT_MS unset: a read with `min_position` waits up to 5 s for the read models. */
export const DEFAULT_MIN_POSITION_WAIT_MS = 5_000;

/** What `Retry-After` says after a read ran out of time (the read models usually follow within moments). */
export const READ_MODEL_LAGGING_RETRY_AFTER_SECONDS = 1;

export const READ_YOUR_WRITES = Symbol('READ_YOUR_WRITES');

const STORE_READ = 'runtime:store-read';

/**
 * Marks a read route that does not come from the read models (it reads the agent's events in the
 * store, which include every write already): `min_position` is accepted and ignored there.
 */
export const StoreRead = () => SetMetadata(STORE_READ, true);

/** True for a handler (or controller) marked StoreRead. */
export function isStoreRead(reflect: (key: string) => unknown): boolean {
  return reflect(STORE_READ) === true;
}

/**
 * `min_position` of a read (HTTP query parameter, gRPC field): a global position as a decimal
 * string, null when absent (or empty). Anything else is 400 `validation_failed` naming the field.
 */
export function parseMinPosition(value: unknown, field = 'min_position'): bigint | null {
  if (value === undefined || value === null || value === '') return null;
  try {
    if (typeof value !== 'string') throw new TypeError('not a string');
    return fromJsonPosition(value);
  } catch {
    throw new ApiError(
      'validation_failed',
      `${field} must be a position: one non-negative decimal integer, as a command reply's position`,
      { field },
    );
  }
}

/**
 * Read-your-writes for the edges (docs/decisions/0023): `reach` resolves once the read models
 * include `position` for the agent (null: a read across agents, the checkpoints alone), or throws
 * 503 `read_model_lagging` after the bound, with `Retry-After` and the lagging projections.
 */
export class ReadYourWrites {
  constructor(
    private readonly barrier: () => ReadBarrier,
    readonly waitMs: number,
  ) {}

  async reach(agentId: string | null, position: bigint): Promise<void> {
    const lags = await this.barrier().waitFor(agentId, position, this.waitMs);
    if (lags.length > 0) throw readModelLagging(agentId, position, this.waitMs, lags);
  }
}

export function readModelLagging(
  agentId: string | null,
  position: bigint,
  waitedMs: number,
  lags: ProjectionLag[],
): ApiError {
  const parked = lags.some((lag) => lag.reason === 'agent_parked');
  return new ApiError(
    'read_model_lagging',
    parked
      ? `the read models hold agent ${agentId}'s events from a poison event on: min_position ${position} is not in them`
      : `the read models did not reach min_position ${position} within ${waitedMs} ms: retry later`,
    {
      min_position: position.toString(),
      ...(agentId === null ? {} : { agent_id: agentId }),
      waited_ms: waitedMs,
      retry_after_seconds: READ_MODEL_LAGGING_RETRY_AFTER_SECONDS,
      projections: lags,
    },
  );
}
