import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { agentStream, currentSchemaVersion } from '@app/core';
import { cmd, history } from '@app/domain/testing';
import type { EventStore, StoredEvent } from '@app/event-store';
import type { SchedulerWorker } from '@app/application';

/**
 * New agents appended through the store, each stream in one append (registered, one queued work
 * item): a worker sees each agent whole, so one worker's decisions for it do not depend on timing.
 */
export async function seedAgents(store: EventStore, agentIds: readonly string[], batch = 25): Promise<void> {
  for (let i = 0; i < agentIds.length; i += batch) {
    await Promise.all(
      agentIds.slice(i, i + batch).map((agentId) => {
        const events = history([], cmd.register(agentId), cmd.create('w-1'));
        const commandId = `seed-${agentId}`;
        return store.appendToStream(
          agentStream(agentId),
          events.map((event) => ({
            id: randomUUID(),
            type: event.type,
            data: event.data,
            metadata: {
              command_id: commandId,
              correlation_id: commandId,
              causation_id: commandId,
              actor: 'seed',
              schema_version: currentSchemaVersion(event.type),
            },
          })),
          'no_stream',
        );
      }),
    );
  }
}

/** Waits until the workers are idle and the store's head has not moved for `stableMs`. */
export async function quiet(store: EventStore, workers: readonly SchedulerWorker[], stableMs = 1_500): Promise<void> {
  const deadline = Date.now() + 90_000;
  let head: bigint | null = -2n;
  let since = Date.now();
  while (Date.now() < deadline) {
    await Promise.all(workers.map((worker) => worker.idle()));
    const now = await store.headPosition();
    if (now !== head) [head, since] = [now, Date.now()];
    else if (Date.now() - since >= stableMs) return;
    await sleep(100);
  }
  throw new Error('the scheduler workers never came to rest');
}

export interface AgentDecisions {
  /** `kind:reason` of each SchedulerDecisionRecorded, in order. */
  kinds: string[];
  /** The decisions' events, for their metadata. */
  events: StoredEvent[];
  /** Decision keys (a decision's idempotency_key, or the command id of its write) recorded more than once. */
  duplicateKeys: string[];
}

export async function decisionsOf(store: EventStore, agentId: string): Promise<AgentDecisions> {
  const events = (await store.readStream(agentStream(agentId))).filter((e) => e.type === 'SchedulerDecisionRecorded');
  const keys = events.flatMap((e) => {
    const decision = (e.data as { decision: { idempotency_key: string | null } }).decision;
    const commandId = String((e.metadata as Record<string, unknown>).command_id);
    return decision.idempotency_key === null
      ? [`cmd:${commandId}`]
      : [`key:${decision.idempotency_key}`, `cmd:${commandId}`];
  });
  const seen = new Set<string>();
  const duplicateKeys = keys.filter((key) => seen.has(key) || !seen.add(key));
  const kinds = events.map((e) => {
    const decision = (e.data as { decision: { kind: string; reason: string } }).decision;
    return `${decision.kind}:${decision.reason}`;
  });
  return { kinds, events, duplicateKeys };
}
