import type { EventStore } from '@app/event-store';
import { agentIdOfStream, type AgendaQuery, type AgendaShards, type AgentDirectory } from '@app/core';
import type { DueAgenda } from './due-agenda';

/** How far ahead the agenda holds the read model's deadlines (SchedulerWorkerOptions.horizonMs). */
export const DEFAULT_AGENDA_HORIZON_MS = 120_000;
/** Rows per page of the agenda queries, events per page of the take-over read. */
const PAGE = 1_000;

export interface AgendaLoaderOptions {
  horizonMs?: number;
  now: () => number;
  onError: (error: unknown, what: string) => void;
}

/**
 * Fills the worker's agenda from the scheduler_agenda read model (ADR 0038) instead of evaluating
 * every agent: at start (and for gained shards) the agents that are undecided or due within the
 * horizon are evaluated or armed; later deadlines are read as the horizon moves, a page at a time.
 * What the worker computes itself (after each evaluation) goes into the agenda directly.
 */
export class AgendaLoader {
  private readonly horizonMs: number;
  /** The read model's deadlines up to this instant (ms) are in the agenda. */
  private loadedUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private moving: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly directory: AgentDirectory & Required<Pick<AgentDirectory, 'agenda'>>,
    private readonly store: EventStore,
    private readonly agenda: DueAgenda,
    private readonly poke: (agentId: string) => void,
    private readonly shards: () => AgendaShards | undefined,
    private readonly options: AgendaLoaderOptions,
  ) {
    this.horizonMs = options.horizonMs ?? DEFAULT_AGENDA_HORIZON_MS;
  }

  /** At start: the undecided and soon-due agents of the shards held, then the horizon moves by itself. */
  async start(): Promise<void> {
    this.loadedUntil = this.options.now() + this.horizonMs;
    await this.loadStart(this.shards());
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Shards gained in a rebalance: their undecided and soon-due agents as at start, and the agents
   * of every event the read model does not include yet (the take-over gap: the worker dropped
   * those events while another replica held the shards), read from the store from the read
   * model's checkpoint to its head.
   */
  async gained(shards: AgendaShards, gained: (agentId: string) => boolean): Promise<void> {
    const checkpoint = await this.directory.projectedUpTo();
    const head = await this.store.headPosition();
    await this.loadStart(shards);
    if (head === null) return;
    let after = checkpoint ?? undefined;
    while (!this.stopped && (after === undefined || after < head)) {
      const events = await this.store.readAll({ after_position: after, max_count: PAGE });
      if (events.length === 0) return;
      for (const event of events) {
        const agentId = agentIdOfStream(event.stream);
        if (agentId !== null && gained(agentId)) this.poke(agentId);
      }
      after = events[events.length - 1].position;
    }
  }

  private async loadStart(shards: AgendaShards | undefined): Promise<void> {
    const now = this.options.now();
    const until = new Date(this.loadedUntil).toISOString();
    await this.pages({ kind: 'start', until, shards }, (entry) => {
      if (entry.undecided || entry.next_due_at === null || Date.parse(entry.next_due_at) <= now)
        this.poke(entry.agent_id);
      else this.agenda.offer(entry.agent_id, entry.next_due_at);
    });
  }

  /** Moves the horizon: the deadlines in (loadedUntil, now + horizon] of the shards held join the agenda. */
  private advance(): Promise<void> {
    this.moving = this.moving.then(async () => {
      if (this.stopped) return;
      const until = this.options.now() + this.horizonMs;
      if (until <= this.loadedUntil) return;
      const query = {
        kind: 'due' as const,
        from: new Date(this.loadedUntil).toISOString(),
        until: new Date(until).toISOString(),
        shards: this.shards(),
      };
      try {
        await this.pages(query, (entry) => entry.next_due_at && this.agenda.offer(entry.agent_id, entry.next_due_at));
        this.loadedUntil = until;
      } catch (error) {
        this.options.onError(error, 'could not read the next deadlines of the agenda; retrying');
      }
    });
    return this.moving;
  }

  private async pages(
    query: AgendaQuery,
    each: (entry: { agent_id: string; next_due_at: string | null; undecided: boolean }) => unknown,
  ): Promise<void> {
    let cursor: string | null = null;
    do {
      const page = await this.directory.agenda({ ...query, cursor, limit: PAGE });
      page.entries.forEach(each);
      cursor = page.next;
    } while (cursor !== null && !this.stopped);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.advance().then(() => this.schedule());
      },
      Math.max(1, Math.floor(this.horizonMs / 2)),
    );
    this.timer.unref?.();
  }
}
