import { type AgentEvent, type AgentState, evolve, initialAgentState } from '@app/domain';
import type { EventStore } from '@app/event-store';
import { toDomainEvent } from '@app/core';
import { atMost, type Check } from '../report';
import type { Figure } from '../support/context';
import { settledHeapBytes } from '../support/heap';
import { benchStore } from '../support/postgres';
import { benchStoreKind, currentStoreName } from '../support/store';
import { msSince, nowNs } from '../support/stats';
import { AgentLife } from '../support/workload';

const MB = 1024 * 1024;

/**
 * Folds `count` events through the domain's evolve, cheaply: a prefix that registers the agent
 * and creates its items, then a cycle of 1000 pre-decided todo-list updates played over and over.
 */
function replay(prefix: AgentEvent[], cycle: AgentEvent[], count: number): AgentState {
  let state = initialAgentState();
  for (const event of prefix) state = evolve(state, event);
  for (let i = prefix.length; i < count; i++) state = evolve(state, cycle[i % cycle.length]);
  return state;
}

/** Subscribe, take the first event, stop (as `for await … break` does): one restart of a subscriber. */
async function restartSubscriptions(store: EventStore, after: bigint, cycles: number): Promise<void> {
  for (let i = 0; i < cycles; i++) {
    const subscription = store.subscribeToAll({ after_position: after, batch_size: 10 });
    for await (const event of subscription) {
      if (event.position <= after) throw new Error('subscription delivered an old event');
      break;
    }
    await subscription.stop();
  }
}

export const memoryFigure: Figure = {
  id: 9,
  title: 'Memory: heap after replaying 1M events and after 10k subscription restarts',
  async run(ctx) {
    const url = await ctx.pg.isolated('memory');
    const pool = await ctx.pg.migratedPool(url, 4);
    const store = await benchStore(pool);
    const life = new AgentLife('agent-memory');
    const toEvents = (n: number) => life.take(n).map((e) => toDomainEvent<AgentEvent>(e));
    const prefix = toEvents(10);
    const cycle = toEvents(1000);
    const appended = await store.appendToStream('agent-memory', life.take(20), 'any');
    const after = appended.position - 5n;
    const events = ctx.scale(1_000_000, 50_000);
    const restarts = ctx.scale(10_000, 100);

    // Warm-up: the same code paths, smaller, so that compiled code and pools are in the baseline.
    replay(prefix, cycle, ctx.scale(100_000, 10_000));
    await restartSubscriptions(store, after, ctx.scale(200, 20));
    const warm = await settledHeapBytes();

    const replayStart = nowNs();
    const state = replay(prefix, cycle, events);
    const replayS = msSince(replayStart) / 1000;
    const afterReplay = await settledHeapBytes();
    if (state.version !== events) throw new Error(`replayed ${state.version} events, expected ${events}`);

    const restartStart = nowNs();
    await restartSubscriptions(store, after, restarts);
    const restartS = msSince(restartStart) / 1000;
    const afterRestarts = await settledHeapBytes();
    await store.close();
    await pool.end();
    ctx.log(
      `  heap warm ${(warm / MB).toFixed(1)} MB, after replay ${(afterReplay / MB).toFixed(1)} MB, after restarts ${(afterRestarts / MB).toFixed(1)} MB`,
    );

    const check = (name: string, value: number): Check => ({
      name,
      measured: { value: value / MB, unit: 'MB' },
      baseline: { value: warm / MB, unit: 'MB', label: 'warmed-up heap' },
      ...atMost(value / warm, 1.1),
    });
    return {
      method:
        'Heap in use (`process.memoryUsage().heapUsed`) after forced full collections: once warmed up (the same work, smaller), after ' +
        `folding ${events.toLocaleString('en-US')} events through the domain's evolve in memory (a prefix creating 8 work items, then ` +
        '1000 pre-decided todo-list updates replayed in a cycle; the final state is kept alive), and after ' +
        `${restarts.toLocaleString('en-US')} subscribe / first event / stop cycles of \`${currentStoreName()}.subscribeToAll\`. ` +
        'Target: within 10% of the warmed-up heap.',
      checks: [
        check(`heap after replaying ${events.toLocaleString('en-US')} events`, afterReplay),
        check(`heap after ${restarts.toLocaleString('en-US')} subscription restarts`, afterRestarts),
      ],
      tables: [
        {
          title: 'Heap and rates',
          columns: ['point', 'heap MB', 'vs warm', 'work rate'],
          rows: [
            ['warmed up', warm / MB, '1x', ''],
            [
              `after ${events.toLocaleString('en-US')} events`,
              afterReplay / MB,
              `${(afterReplay / warm).toFixed(3)}x`,
              `${Math.round(events / replayS).toLocaleString('en-US')} events/s`,
            ],
            [
              `after ${restarts.toLocaleString('en-US')} restarts`,
              afterRestarts / MB,
              `${(afterRestarts / warm).toFixed(3)}x`,
              `${(restarts / restartS).toFixed(0)} restarts/s`,
            ],
          ],
        },
      ],
      notes: [
        ...[afterReplay, afterRestarts]
          .filter((value) => value / warm > 1.1)
          .map(
            (value) =>
              `Missed: the heap ended ${(value / warm).toFixed(2)}x the warmed-up heap. A leak grows with the work done: compare ` +
              'a run with twice the events or restarts (a fixed overhead stays, a leak doubles), then take a heap snapshot ' +
              '(`node --heapsnapshot-signal`) at the end of the figure and look for what holds the states or subscriptions.',
          ),
        ...(benchStoreKind() === 'postgres'
          ? [
              'Each subscription opens its own LISTEN connection before its first read and closes it on stop, so a restart costs a ' +
                `Postgres connection set-up: ${((1000 * restartS) / restarts).toFixed(1)} ms per restart here. One LISTEN connection per store, ` +
                'shared by its subscriptions (each registering a wake-up), would make a restart cost one page read.',
            ]
          : [
              `A restart costs ${((1000 * restartS) / restarts).toFixed(1)} ms here (a new filtered $all subscription on the server).`,
            ]),
      ],
    };
  },
};
