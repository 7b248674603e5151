import type { Logger } from '@app/core';
import type { EventStore, SubscribeOptions } from '@app/event-store';
import { FedSubscription } from '@app/event-store/testing';
import type { ApplicationSettings } from '../settings';
import { ActivationWaiters } from './activation-waiters';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const logger = { error: jest.fn() } as unknown as Logger;

function setup(settings: Partial<ApplicationSettings> = {}) {
  const subscriptions: Array<{ options?: SubscribeOptions; subscription: FedSubscription }> = [];
  const store = {
    headPosition: async () => 41n,
    subscribeToAll: (options?: SubscribeOptions) => {
      const subscription = new FedSubscription();
      subscriptions.push({ options, subscription });
      return subscription;
    },
  } as unknown as EventStore;
  const waiters = new ActivationWaiters(store, logger, settings as ApplicationSettings);
  return {
    waiters,
    subscriptions,
    feed: (agentId: string, revision: bigint) => subscriptions[0]!.subscription.deliver(`agent-${agentId}`, revision),
  };
}

describe('ActivationWaiters: one subscription per process, fanned out to the waiters of each agent', () => {
  it('subscribes once, after the head, for any number of waiters, and only when the first one registers', async () => {
    const { waiters, subscriptions } = setup();
    expect(subscriptions).toHaveLength(0);
    const many = await Promise.all(Array.from({ length: 100 }, (_, i) => waiters.register(`agent-${i % 10}`, 'tok')));
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]!.options).toMatchObject({ after_position: 41n });
    expect(waiters.size()).toBe(100);
    many.forEach((waiter) => waiter.release());
    expect(waiters.size()).toBe(0);
    await waiters.onModuleDestroy();
    expect(subscriptions[0]!.subscription.stopped).toBe(true);
  });

  it("wakes the waiters of the event's agent only, and only for a revision past the one their step saw", async () => {
    const { waiters, feed } = setup();
    const mine = await waiters.register('a1', 'tok');
    const other = await waiters.register('a2', 'tok');
    mine.saw(5n);
    other.saw(5n);
    const waitingMine = mine.wait(60_000);
    const waitingOther = other.wait(200);
    feed('a1', 5n); // the step's own write: already seen
    await flush();
    feed('a1', 6n);
    expect(await waitingMine).toBe('event');
    expect(await waitingOther).toBe('timeout');
    mine.release();
    other.release();
  });

  it('an event delivered between a step and its wait ends that wait at once (nothing is missed)', async () => {
    const { waiters, feed } = setup();
    const waiter = await waiters.register('a1', 'tok');
    feed('a1', 3n);
    await flush();
    waiter.saw(2n);
    expect(await waiter.wait(60_000)).toBe('event');
    waiter.saw(3n);
    expect(waiter.stale).toBe(false);
    waiter.release();
  });

  it('an aborted signal and shutdown end a wait; a released waiter leaves no timer and no entry behind', async () => {
    const { waiters } = setup();
    const gone = new AbortController();
    const a = await waiters.register('a1', 'tok');
    const pending = a.wait(60_000, gone.signal);
    gone.abort();
    expect(await pending).toBe('aborted');
    a.release();
    a.release();
    expect(waiters.size()).toBe(0);
    const b = await waiters.register('a1', 'tok');
    const closing = b.wait(60_000);
    await waiters.onModuleDestroy();
    expect(await closing).toBe('closing');
    b.release();
    expect(waiters.size()).toBe(0);
    await expect(waiters.register('a1', 'tok')).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('bounds waiters per token and per process with 429 rate_limited and a retry_after', async () => {
    const { waiters } = setup({ activationWaitersPerToken: 2, activationWaitersMax: 3 });
    const held = [await waiters.register('a1', 'tok-1'), await waiters.register('a2', 'tok-1')];
    await expect(waiters.register('a3', 'tok-1')).rejects.toMatchObject({
      code: 'rate_limited',
      details: { reason: 'waiters_per_token', retry_after_seconds: 1 },
    });
    held.push(await waiters.register('a1', 'tok-2'));
    await expect(waiters.register('a1', 'tok-3')).rejects.toMatchObject({
      code: 'rate_limited',
      details: { reason: 'waiters_per_process' },
    });
    held.shift()!.release();
    held.push(await waiters.register('a3', 'tok-1'));
    expect(waiters.size()).toBe(3);
    held.forEach((waiter) => waiter.release());
    expect(waiters.size()).toBe(0);
    await waiters.onModuleDestroy();
  });
});
