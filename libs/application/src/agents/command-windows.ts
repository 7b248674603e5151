import type { StoredEvent } from '@app/event-store';
import type { RecentCommand, RecentCommands } from '@app/core';
import { IdempotencyWindow } from './idempotency-window';

/** Whose command it is: a caller's (its key in the callers' window) or the scheduler's own (a window of its own). */
export type CommandScope = 'caller' | 'scheduler';

type Touches = Array<[string, bigint, string?]>;

/** `[command_id, revision, fingerprint?]` of each event that carries a command id, in stream order, by scope. */
export function appliedCommands(tail: readonly StoredEvent[]): Record<CommandScope, Touches> {
  const applied: Record<CommandScope, Touches> = { caller: [], scheduler: [] };
  for (const { metadata, revision } of tail) {
    if (typeof metadata.command_id !== 'string') continue;
    const fingerprint = typeof metadata.command_fingerprint === 'string' ? metadata.command_fingerprint : undefined;
    applied[metadata.command_scope === 'scheduler' ? 'scheduler' : 'caller'].push([
      metadata.command_id,
      revision,
      fingerprint,
    ]);
  }
  return applied;
}

/** A snapshot's windows: the scheduler's entries carry the scope `"scheduler"` (older snapshots have none). */
export function windowsOf(json: RecentCommands): { commands: IdempotencyWindow; schedulerCommands: IdempotencyWindow } {
  const scheduler = json.filter((entry) => entry[4] === 'scheduler');
  const caller = json.filter((entry) => entry[4] !== 'scheduler');
  return { commands: IdempotencyWindow.fromJSON(caller), schedulerCommands: IdempotencyWindow.fromJSON(scheduler) };
}

export function schedulerEntries(window: IdempotencyWindow): RecentCommands {
  return window
    .toJSON()
    .map(([id, first, last, fingerprint]): RecentCommand => [id, first, last, fingerprint ?? null, 'scheduler']);
}
