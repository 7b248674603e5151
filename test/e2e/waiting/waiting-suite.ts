import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore, type StoredEvent } from '@app/event-store';
import { startTestApp, type TestApp } from '../../support/app';
import { callerEventsOf } from '../../support/grpc';
import { httpClient, projected } from '../../support/http';
import { freshId } from '../../support/postgres';

type Http = ReturnType<typeof httpClient>;

/** One app per spec file: an agent for `tok-mine`, another one it may not touch, an admin. */
export interface WaitingSuite {
  app: TestApp;
  mine: string;
  other: string;
  scoped: Http;
  admin: Http;
  anonymous: Http;
  /** `/v1/agents/<mine>` */
  base: string;
  /** How many events callers wrote (the scheduler worker's are left out): "nothing written" = unchanged. */
  written(agentId: string): Promise<number>;
  eventsOf(agentId: string): Promise<StoredEvent[]>;
  projected(): Promise<void>;
  /** A fresh open work item of `mine`. */
  item(objective?: string): Promise<string>;
}

export function waitingSuite(): WaitingSuite {
  const suite = { mine: freshId('agent'), other: freshId('agent') } as WaitingSuite;
  suite.base = `/v1/agents/${suite.mine}`;
  beforeAll(async () => {
    suite.app = await startTestApp({ tokens: `tok-admin=*;tok-mine=${suite.mine}` });
    const store = suite.app.runtime.app.get<EventStore>(EVENT_STORE);
    suite.scoped = httpClient(suite.app, 'tok-mine');
    suite.admin = httpClient(suite.app, 'tok-admin');
    suite.anonymous = httpClient(suite.app);
    suite.written = async (agentId) => (await callerEventsOf(suite.app, agentId)).length;
    suite.eventsOf = (agentId) => store.readStream(agentStream(agentId));
    suite.projected = () => projected(suite.app);
    suite.item = async (objective = 'an item') => {
      const reply = await suite.scoped('POST', `${suite.base}/work-items`, { objective });
      expect(reply.status).toBe(201);
      return reply.body.work_item.id as string;
    };
    expect((await suite.scoped('POST', '/v1/agents', { agent_id: suite.mine })).status).toBe(201);
    expect((await suite.admin('POST', '/v1/agents', { agent_id: suite.other })).status).toBe(201);
  });
  afterAll(() => suite.app?.close());
  return suite;
}
