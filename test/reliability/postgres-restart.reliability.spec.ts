import { restartPostgresUnderLoad } from './scenarios/postgres-restart';
import { assertCleanHistory } from './support/history';

jest.setTimeout(180_000);

describe('crashes: the embedded Postgres stopped and restarted under load', () => {
  it('commands fail fast with 503 while it is down, succeed after it is back, and nothing is lost or doubled', async () => {
    const result = await restartPostgresUnderLoad();
    console.log(JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
    assertCleanHistory(result.report);
  });
});
