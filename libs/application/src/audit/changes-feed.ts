import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from '@app/event-store';
import { agentIdOfStream } from '@app/core';
import type { Caller } from '../auth/request-authorizer';

/** One event of an agent, once the read models include it (the console reloads what it touched). */
export type Change = { agent_id: string; revision: bigint; position: bigint; type: string };

/** Which agents a caller may hear about: an admin token hears about all of them. */
export type ChangeScope = { readonly all: true } | { readonly all: false; readonly agent_ids: readonly string[] };

/** The agents a caller hears about: its token's agents; an admin token, all of them. */
export function changeScopeOf(caller: Caller): ChangeScope {
  return caller.admin ? { all: true } : { all: false, agent_ids: caller.agents };
}

/** A change on the wire (the `data` of HTTP's `change` frame, a gRPC Change): bigints become decimal strings there. */
export function toChangeItem(change: Change): Change {
  return { agent_id: change.agent_id, revision: change.revision, position: change.position, type: change.type };
}

/** The read models' checkpoint (the global position of the last event they include), or null before the first. */
export type CheckpointReader = () => Promise<bigint | null>;

export type ChangesFeedOptions = {
  /** How often the checkpoint is read while an event waits for the projector. */
  pollMs?: number;
  /** How long an event waits for the projector before it is sent anyway (a stalled projector must not mute the feed). */
  maxWaitMs?: number;
};

/**
 * Every agent's events as they land in the read models, for views that span agents (the
 * console's agents list and attention view): a subscription to all events, filtered to the
 * caller's agents, each held back until the projection checkpoint has passed it, so a view
 * that reloads on a change reads rows that already include it.
 */
export class ChangesFeed {
  private readonly pollMs: number;
  private readonly maxWaitMs: number;
  private checkpoint: bigint | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly readCheckpoint: CheckpointReader,
    options: ChangesFeedOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 50;
    this.maxWaitMs = options.maxWaitMs ?? 2_000;
  }

  /** Where "from now on" starts: the position of the newest event (null: the store is empty). */
  now(): Promise<bigint | null> {
    return this.store.headPosition();
  }

  /** Changes after `after` (a global position, exclusive; null: from the first event) until `signal` aborts. */
  async *follow(scope: ChangeScope, after: bigint | null, signal: AbortSignal): AsyncGenerator<Change> {
    const agents = scope.all ? null : new Set(scope.agent_ids);
    const subscription = this.store.subscribeToAll({ after_position: after ?? undefined, signal });
    try {
      for await (const event of subscription) {
        const agentId = agentIdOfStream(event.stream);
        if (agentId === null || (agents !== null && !agents.has(agentId))) continue;
        await this.projected(event.position, signal);
        if (signal.aborted) return;
        yield { agent_id: agentId, revision: event.revision, position: event.position, type: event.type };
      }
    } finally {
      await subscription.stop();
    }
  }

  /** Waits until the checkpoint has reached `position` (the newest checkpoint read is kept: followers read it only while an event waits). */
  private async projected(position: bigint, signal: AbortSignal): Promise<void> {
    const deadline = Date.now() + this.maxWaitMs;
    while (!signal.aborted && (this.checkpoint === null || this.checkpoint < position)) {
      const checkpoint = await this.readCheckpoint().catch(() => null);
      if (checkpoint !== null && (this.checkpoint === null || checkpoint > this.checkpoint))
        this.checkpoint = checkpoint;
      if ((this.checkpoint !== null && this.checkpoint >= position) || Date.now() >= deadline) return;
      await sleep(this.pollMs, undefined, { signal }).catch(() => undefined); // an abort ends the wait (the loop sees it)
    }
  }
}
