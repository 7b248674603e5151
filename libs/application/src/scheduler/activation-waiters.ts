import { Inject, Injectable, type OnModuleDestroy, Optional } from '@nestjs/common';
import { EVENT_STORE, type EventStore, type Subscription } from '@app/event-store';
import { agentIdOfStream, ApiError, LOGGER, type Logger } from '@app/core';
import { APPLICATION_SETTINGS, type ApplicationSettings } from '../settings';

/** Long-poll activations waiting at once in one process (ACTIVATION_WAITERS_MAX). */
export const DEFAULT_MAX_WAITERS = 5_000;
/** ... and per token (ACTIVATION_WAITERS_PER_TOKEN): one host pool cannot take every slot. */
export const DEFAULT_MAX_WAITERS_PER_TOKEN = 1_000;

/** Why a wait ended: an event of the agent past what the last step saw, the time given, the caller left, shutdown. */
export type WaitEnd = 'event' | 'timeout' | 'aborted' | 'closing';

/**
 * One long-poll activation waiting on one agent. `saw` records the stream revision its last
 * step decided on; an event of the agent after it (delivered before or during `wait`) ends
 * the next wait at once, so nothing written between a step and its wait is missed.
 */
export class AgentWaiter {
  private seen = -1n;
  private latest = -1n;
  private settle: ((end: WaitEnd) => void) | null = null;
  private closing = false;

  constructor(
    readonly agentId: string,
    readonly tokenName: string,
    private readonly onRelease: (waiter: AgentWaiter) => void,
  ) {}

  /** The step that ran last decided on this revision of the agent's stream. */
  saw(revision: bigint): void {
    if (revision > this.seen) this.seen = revision;
  }

  /** A revision past the last step's: delivering it forces one more step. */
  get next(): bigint {
    return this.seen + 1n;
  }

  /** True when an event after the last step's revision has arrived. */
  get stale(): boolean {
    return this.latest > this.seen;
  }

  /** Resolves on a newer event of the agent, after `timeoutMs`, when `signal` aborts, or at shutdown. */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<WaitEnd> {
    if (this.closing) return Promise.resolve('closing');
    if (signal?.aborted) return Promise.resolve('aborted');
    if (this.stale) return Promise.resolve('event');
    return new Promise<WaitEnd>((resolve) => {
      const finish = (end: WaitEnd) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.settle = null;
        resolve(end);
      };
      const onAbort = () => finish('aborted');
      const timer = setTimeout(() => finish('timeout'), Math.max(0, timeoutMs));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.settle = finish;
    });
  }

  /** Stop waiting for good (ends a pending wait); idempotent. */
  release(): void {
    this.onRelease(this);
  }

  /** @internal the hub delivers an event of this agent at `revision`. */
  deliver(revision: bigint): void {
    if (revision > this.latest) this.latest = revision;
    if (this.stale) this.settle?.('event');
  }

  /** @internal the process is shutting down: the wait answers what it has. */
  close(): void {
    this.closing = true;
    this.settle?.('closing');
  }
}

/**
 * Wakes long-poll activations (docs/decisions/0028): one subscription to the store per
 * process, started by the first waiter and shared by all, fans each event out to the waiters
 * of its agent. The subscription sees every writer (the Postgres store's NOTIFY crosses
 * processes; the EventStoreDB adapter subscribes to $all), so a message enqueued through
 * another replica, or a timer fired by a worker elsewhere, wakes a waiter here. Idle waiters
 * cost a map entry and a timer each; nothing polls per request.
 */
@Injectable()
export class ActivationWaiters implements OnModuleDestroy {
  private readonly byAgent = new Map<string, Set<AgentWaiter>>();
  private readonly byToken = new Map<string, number>();
  private count = 0;
  private listening: Promise<void> | null = null;
  private subscription: Subscription | null = null;
  private closed = false;
  private readonly maxWaiters: number;
  private readonly maxPerToken: number;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(APPLICATION_SETTINGS) settings?: ApplicationSettings,
  ) {
    this.maxWaiters = settings?.activationWaitersMax ?? DEFAULT_MAX_WAITERS;
    this.maxPerToken = settings?.activationWaitersPerToken ?? DEFAULT_MAX_WAITERS_PER_TOKEN;
  }

  /** Waiters registered now (all agents). */
  size(): number {
    return this.count;
  }

  /**
   * A waiter for `agentId`, registered before the step it guards (events from then on are
   * delivered to it). 429 `rate_limited` with a Retry-After when the token or the process
   * already has its share of waiters; 503 `unavailable` while shutting down.
   */
  async register(agentId: string, tokenName: string): Promise<AgentWaiter> {
    if (this.closed) throw new ApiError('unavailable', 'the runtime is shutting down', { retry_after_seconds: 1 });
    const ofToken = this.byToken.get(tokenName) ?? 0;
    if (ofToken >= this.maxPerToken || this.count >= this.maxWaiters) {
      const perToken = ofToken >= this.maxPerToken;
      throw new ApiError(
        'rate_limited',
        perToken
          ? `this token already has ${this.maxPerToken} activations waiting: retry after 1 s`
          : `this process already has ${this.maxWaiters} activations waiting: retry after 1 s`,
        { reason: perToken ? 'waiters_per_token' : 'waiters_per_process', retry_after_seconds: 1 },
      );
    }
    const waiter = new AgentWaiter(agentId, tokenName, (w) => this.remove(w));
    let set = this.byAgent.get(agentId);
    if (!set) this.byAgent.set(agentId, (set = new Set()));
    set.add(waiter);
    this.byToken.set(tokenName, ofToken + 1);
    this.count += 1;
    try {
      await this.listen();
    } catch (error) {
      waiter.release();
      throw error;
    }
    return waiter;
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    for (const set of this.byAgent.values()) for (const waiter of set) waiter.close();
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
  }

  private remove(waiter: AgentWaiter): void {
    const set = this.byAgent.get(waiter.agentId);
    if (!set?.delete(waiter)) return;
    waiter.close();
    if (set.size === 0) this.byAgent.delete(waiter.agentId);
    const left = (this.byToken.get(waiter.tokenName) ?? 1) - 1;
    if (left === 0) this.byToken.delete(waiter.tokenName);
    else this.byToken.set(waiter.tokenName, left);
    this.count -= 1;
  }

  /**
   * Starts the shared subscription once, after the store's head: an event committed after this
   * resolves is delivered, and the step that follows a registration reads everything before.
   */
  private listen(): Promise<void> {
    this.listening ??= (async () => {
      const head = await this.store.headPosition();
      if (this.closed) return;
      const subscription = this.store.subscribeToAll({ after_position: head ?? undefined });
      this.subscription = subscription;
      void this.consume(subscription);
    })().catch((error: unknown) => {
      this.listening = null;
      throw error;
    });
    return this.listening;
  }

  private async consume(subscription: Subscription): Promise<void> {
    try {
      for await (const event of subscription) {
        const agentId = agentIdOfStream(event.stream);
        const waiters = agentId === null ? undefined : this.byAgent.get(agentId);
        if (waiters) for (const waiter of [...waiters]) waiter.deliver(event.revision);
      }
    } catch (error) {
      if (this.closed) return;
      this.logger.error(
        { err: error, component: 'activations' },
        'activation wake-up subscription ended; waiting activations fall back to their deadlines',
      );
    }
    if (this.subscription !== subscription) return;
    // Ended unexpectedly (the adapters ride out lost connections themselves): subscribe again
    // shortly, then let every waiter step once, since events in between were not delivered.
    this.subscription = null;
    this.listening = null;
    setTimeout(() => {
      if (this.closed || this.count === 0) return;
      this.listen().then(
        () => this.byAgent.forEach((set) => set.forEach((waiter) => waiter.deliver(waiter.next))),
        () => undefined,
      );
    }, 1_000).unref();
  }
}
