import { killServiceMidLoad } from './scenarios/kill-service';
import { assertCleanHistory } from './support/history';

jest.setTimeout(180_000);

describe('crashes: kill -9 of the service process', () => {
  it('in the middle of a command load: every acknowledged command is there once after the restart, and retries create nothing new', async () => {
    const result = await killServiceMidLoad();
    console.log(JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
    assertCleanHistory(result.report);
    expect(result.report.acked).toBeGreaterThan(0);
  });
});
