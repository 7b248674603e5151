import { Pool } from 'pg';
import type { AgentState } from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { type ProjectionRunner, PROJECTION_RUNNER } from '@app/read-models';
import { startTestApp, type TestApp, type TestAppOptions } from '../../support/app';
import { isolatedDatabaseUrl } from '../../support/postgres';
import { AckLog } from './ack-log';
import { applyLogHook, ensureApplyLog } from './apply-log';
import { ReliabilityClient } from './client';
import { checkHistory, type HistoryReport } from './history';

/**
 * A deployment of its own for the in-process scenarios: a fresh schema of the run's Postgres
 * (so the checker can hold everything in it to account), the real app on it, the app's projector
 * writing the apply log, and a client whose commands are logged.
 */
export interface Deployment {
  url: string;
  app: TestApp;
  pool: Pool;
  store: EventStore;
  runner: ProjectionRunner<AgentState>;
  client: ReliabilityClient;
  log: AckLog;
  /** The history checker on this deployment (apply log from its start). */
  check(options?: { rebuild?: boolean }): Promise<HistoryReport>;
  close(): Promise<void>;
}

export async function startDeployment(prefix: string, options: TestAppOptions = {}): Promise<Deployment> {
  const url = await isolatedDatabaseUrl(prefix);
  const tokens = 'tok-admin=*';
  const app = await startTestApp({ ...options, tokens, env: { ...options.env, DATABASE_URL: url } });
  const pool = new Pool({ connectionString: url, max: 4 });
  pool.on('error', () => undefined);
  await ensureApplyLog(pool);
  const runner = app.runtime.app.get<ProjectionRunner<AgentState>>(PROJECTION_RUNNER);
  runner.setApplyHook(applyLogHook('app'));
  const log = new AckLog();
  return {
    url,
    app,
    pool,
    store: app.runtime.app.get<EventStore>(EVENT_STORE),
    runner,
    client: new ReliabilityClient(app.baseUrl, 'tok-admin', log),
    log,
    check: (check = {}) => checkHistory({ url, log, applyLog: { after: -1n }, rebuild: check.rebuild }),
    close: async () => {
      await app.close();
      await pool.end();
    },
  };
}
