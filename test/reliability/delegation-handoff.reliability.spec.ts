import { isolatedDatabaseUrl } from '../support/postgres';
import { killDuringHandoffs } from './scenarios/delegation-handoff';

jest.setTimeout(180_000);

/** Issue 17 item 3: the hand-off between two agents' streams survives kill -9 of the service. */
describe('crashes: the delegation hand-off', () => {
  it('kill -9 while children complete: every delegation completed exactly once, each result once on its parent item', async () => {
    const result = await killDuringHandoffs(await isolatedDatabaseUrl('handoff'), { parents: 2, childrenPerParent: 3 });
    console.log(JSON.stringify(result));
    expect(result.problems).toEqual([]);
    expect(result.delegations).toBe(6);
  });
});
