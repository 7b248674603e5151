import fc from 'fast-check';
import { listWorkItems, MAX_LIST_LIMIT, RANKED_LIST_FILTERS, type WaitWake, WORK_ITEM_LIST_FILTERS } from '@app/domain';
import { type Action, actionsOn, play, registered, streamOf, type World } from '@app/domain/testing';
import { WorkItemQueries, workItemsProjector } from '@app/read-models';
import { ProjectionHarness } from './support/projection-harness';

// Random agent lives, projected into work_items: the lists the read model serves (ORDER BY
// rendered from the domain's CANDIDATE_RANKING) come in the order of the domain's own
// listWorkItems (the declaration's comparators on the folded state). Eight items, so that the
// lists are long enough for the classes and their ties (many commands share a minute) to matter.

const ITEMS = ['w-1', 'w-10', 'w-2', 'W-3', 'w_4', 'w-5', 'w.6', 'w-7'];
const item = fc.constantFrom(...ITEMS);
/** Waits on items and triggers, more often than in actionsOn alone: the triggered list needs both. */
const waitsAndTriggers: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    t: fc.constant('wait' as const),
    id: item,
    wake: fc.constantFrom<WaitWake>('external', 'task_result', 'timer'),
    enqueue: fc.boolean(),
  }),
  fc.record({ t: fc.constant('trigger' as const), n: fc.nat(15), payload: fc.boolean() }),
);
/** Every item created first, some a minute after the one before (so the lists have members and ties), then a random life. */
const lives = fc
  .tuple(
    fc.array(fc.boolean(), { minLength: ITEMS.length, maxLength: ITEMS.length }),
    fc.array(fc.oneof({ weight: 3, arbitrary: actionsOn(item) }, { weight: 1, arbitrary: waitsAndTriggers }), {
      minLength: 1,
      maxLength: 120,
      size: 'max',
    }),
  )
  .map(([later, actions]): Action[] => [
    ...ITEMS.flatMap((id, i): Action[] => [
      { t: 'create', id, needs: false },
      ...(later[i] ? [{ t: 'advance' as const, minutes: 1 }] : []),
    ]),
    ...actions,
  ]);

const ids = (list: { id: string }[]): string[] => list.map((entry) => entry.id);
const isSorted = (list: string[]): boolean => list.every((id, i) => i === 0 || list[i - 1] < id);

describe('the work_items lists rank as the domain does, on random agent lives (property)', () => {
  let world: ProjectionHarness;
  let queries: WorkItemQueries;
  let lifeNo = 0;

  beforeAll(async () => {
    world = await ProjectionHarness.open('ranking');
    queries = new WorkItemQueries(world.pool);
  });
  afterAll(() => world?.close());

  it('serves every list, the queued and triggered ones in candidate ranking order, as listWorkItems does', async () => {
    expect(RANKED_LIST_FILTERS).toEqual(['queued', 'triggered']);
    let ranked = 0;
    await fc.assert(
      fc.asyncProperty(lives, async (actions) => {
        const life = actions.reduce<World>(play, { stream: streamOf([registered()]), minute: 60 });
        const agentId = `life-${(lifeNo += 1)}`;
        await world.record(agentId, life.stream.events);
        await world.project([workItemsProjector]);
        for (const filter of WORK_ITEM_LIST_FILTERS) {
          const expected = listWorkItems(life.stream.state, { filter, limit: MAX_LIST_LIMIT });
          const served = await queries.list(agentId, filter, MAX_LIST_LIMIT);
          expect({ filter, ids: ids(served.items), total: served.total }).toEqual({
            filter,
            ids: ids(expected.items),
            total: expected.total,
          });
          if (RANKED_LIST_FILTERS.includes(filter) && !isSorted(ids(expected.items))) ranked += 1;
        }
      }),
      { numRuns: 30 },
    );
    // The lives do reach ranked lists that the stamps order, not the ids alone.
    expect(ranked).toBeGreaterThan(3);
  }, 180_000); // thirty lives, each written, projected and listed: about 10 s, far longer on a busy machine
});
