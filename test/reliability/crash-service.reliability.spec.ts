import { EmbeddedService } from './scenarios/embedded-service';
import { killServiceMidLoad } from './scenarios/kill-service';
import { restartPostgresUnderLoad } from './scenarios/postgres-restart';
import { assertCleanHistory } from './support/history';

jest.setTimeout(180_000);

const print = (value: unknown) =>
  console.log(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));

/** One service as `npm start` runs it (its own embedded Postgres), crashed in two ways in turn. */
describe('crashes: the service process and its embedded Postgres', () => {
  let host: EmbeddedService;
  beforeAll(async () => {
    host = await EmbeddedService.start();
  });
  afterAll(() => host?.close());

  it('Postgres stopped and restarted under load: commands fail fast with 503 meanwhile, the service reconnects, nothing is lost or doubled', async () => {
    const result = await restartPostgresUnderLoad(host);
    print(result);
    assertCleanHistory(result.report);
  });

  it('kill -9 of the service mid-load: every acknowledged command is there once after the restart, and retries create nothing new', async () => {
    const result = await killServiceMidLoad(host);
    print(result);
    assertCleanHistory(result.report);
    expect(result.report.acked).toBeGreaterThan(60);
  });
});
