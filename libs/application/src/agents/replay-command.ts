import type { EventStore } from '@app/event-store';
import { type AgentDecider, agentStream, type DomainEvent, toDomainEvent } from '@app/core';

/** A command's first result, rebuilt from the stored events of its revisions (a repeated key answers it). */
export interface ReplayedCommand<S, E> {
  before: S;
  after: S;
  events: E[];
  revision: bigint;
  repeated: true;
}

/** Rebuilds the first result of an already applied command from the stored events. */
export async function replayCommand<S, E extends DomainEvent>(
  store: EventStore,
  decider: AgentDecider<S, E>,
  agentId: string,
  range: { first: bigint; last: bigint },
): Promise<ReplayedCommand<S, E>> {
  const stored = await store.readStream(agentStream(agentId), { max_count: Number(range.last + 1n) });
  let before = decider.initialState(agentId);
  const events: E[] = [];
  for (const event of stored) {
    const domainEvent = toDomainEvent<E>(event);
    if (event.revision < range.first) before = decider.evolve(before, domainEvent);
    else if (event.revision <= range.last) events.push(domainEvent);
  }
  const after = events.reduce((state, event) => decider.evolve(state, event), before);
  return { before, after, events, revision: range.last, repeated: true };
}
