import { DomainError } from '@app/domain';
import {
  toJsonPosition,
  toJsonRevision,
  type EventMetadata,
  type EventStore,
  type StoredEvent,
} from '@app/event-store';
import { agentStream, upcastEvent } from '@app/core';

/** One event of `GET /v1/agents/{a}/events` (and of the SSE stream), in the current schema of its type. */
export interface AgentEventItem {
  event_id: string;
  revision: string;
  position: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  recorded_at: string;
}

export interface AgentEventsPage {
  items: AgentEventItem[];
  /** The last revision returned, or the given `after` when nothing was (null: from the start, nothing). */
  next_after: string | null;
}

export const EVENTS_PAGE_DEFAULT = 100;
export const EVENTS_PAGE_MAX = 1000;
const FOLLOW_PAGE = 500;

export function clampEventsLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return EVENTS_PAGE_DEFAULT;
  return Math.min(EVENTS_PAGE_MAX, Math.max(1, Math.trunc(limit)));
}

/** The wire form: upcast (read path), revisions and positions as decimal strings. */
export function toEventItem(stored: StoredEvent): AgentEventItem {
  const event = upcastEvent(stored);
  return {
    event_id: event.id,
    revision: toJsonRevision(event.revision),
    position: toJsonPosition(event.position),
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    recorded_at: event.recorded_at,
  };
}

/** An agent's raw stream for audit: pages by revision, and a live follow that never skips. */
export class AgentEventsReader {
  constructor(private readonly store: EventStore) {}

  /** 404 (`not_found`) when the agent has no stream. */
  async assertExists(agentId: string): Promise<void> {
    if ((await this.store.streamRevision(agentStream(agentId))) === null) {
      throw new DomainError('not_found', { resource: 'agent', id: agentId }, `agent ${agentId} not found`);
    }
  }

  /** The whole stream, in pages (404 `not_found` when the agent has no stream). */
  async whole(agentId: string): Promise<StoredEvent[]> {
    await this.assertExists(agentId);
    const events: StoredEvent[] = [];
    for (
      let page = await this.readFrom(agentStream(agentId), -1n);
      ;
      page = await this.readFrom(agentStream(agentId), events[events.length - 1].revision)
    ) {
      events.push(...page);
      if (page.length < FOLLOW_PAGE) return events;
    }
  }

  /** Events with revision > `after` (exclusive; null: from the start), ascending. */
  async page(agentId: string, after: bigint | null, limit?: number): Promise<AgentEventsPage> {
    await this.assertExists(agentId);
    const from = after === null ? 0n : after + 1n;
    const events = await this.store.readStream(agentStream(agentId), {
      from_revision: from,
      max_count: clampEventsLimit(limit),
    });
    const items = events.map(toEventItem);
    const last = items.length > 0 ? items[items.length - 1].revision : after === null ? null : toJsonRevision(after);
    return { items, next_after: last };
  }

  /**
   * Every event with revision > `after`, then every new one as it commits, until `signal`
   * aborts. The backlog is read from the stream; the live part is a store-wide subscription
   * after the position of the last event delivered, filtered to the stream: an event newer
   * than that revision commits at a later position, so nothing falls between the two, and a
   * revision guard drops what was already delivered (docs/decisions/0007).
   */
  async *follow(agentId: string, after: bigint | null, signal: AbortSignal): AsyncGenerator<StoredEvent> {
    const stream = agentStream(agentId);
    let last = after ?? -1n;
    let position: bigint | null = null;
    for (let page = await this.readFrom(stream, last); !signal.aborted; page = await this.readFrom(stream, last)) {
      for (const event of page) {
        yield event;
        [last, position] = [event.revision, event.position];
      }
      if (page.length < FOLLOW_PAGE) break;
    }
    if (signal.aborted) return;
    position ??= await this.lastPosition(stream);
    const subscription = this.store.subscribeToAll({ after_position: position ?? undefined, signal });
    try {
      for await (const event of subscription) {
        if (event.stream !== stream || event.revision <= last) continue;
        // Defensive: an adapter that delivered a later revision first must not make us skip one.
        const missing =
          event.revision > last + 1n ? await this.readFrom(stream, last, Number(event.revision - last - 1n)) : [];
        for (const earlier of [...missing, event]) {
          yield earlier;
          last = earlier.revision;
        }
      }
    } finally {
      await subscription.stop();
    }
  }

  private readFrom(stream: string, last: bigint, count = FOLLOW_PAGE): Promise<StoredEvent[]> {
    return this.store.readStream(stream, { from_revision: last + 1n, max_count: count });
  }

  private async lastPosition(stream: string): Promise<bigint | null> {
    const [newest] = await this.store.readStream(stream, { direction: 'backwards', max_count: 1 });
    return newest ? newest.position : null;
  }
}
