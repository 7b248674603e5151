import { killProjectorMidBatch } from './scenarios/kill-projector';
import { assertCleanHistory } from './support/history';

jest.setTimeout(180_000);

describe('crashes: kill -9 of the projector', () => {
  it('in the middle of a batch (the soak kills it three times per run): every position applied exactly once, the read models equal a rebuild', async () => {
    const result = await killProjectorMidBatch({ kills: 1 });
    console.log(JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
    assertCleanHistory(result.report);
    expect(result.notes.killed_in_batch).toBe(1);
  });
});
