import { agentStream } from '@app/core';
import { SCHEDULER_WORKER, type SchedulerWorker } from '@app/application';
import { EVENT_STORE, type EventStore, type StoredEvent } from '@app/event-store';
import { FixedClock } from '@app/platform';
import { startTestApp, type TestApp } from '../../support/app';
import { httpClient, type HttpReply, projected } from '../../support/http';
import { freshId, isolatedDatabaseUrl } from '../../support/postgres';

type Http = ReturnType<typeof httpClient>;
type Reply = Promise<HttpReply<any>>;

/** The host's calls on one open turn. */
export interface TurnCalls {
  round(roundId: string, text: string, toolCalls?: Array<[id: string, name: string]>): Reply;
  close(roundId: string): Reply;
  heartbeat(body?: object): Reply;
  end(terminalKind: string, lastAssistantMessage?: string): Reply;
}

/** One app per spec file, with the scheduler worker in-process on a clock the spec moves. */
export interface SchedulerSuite {
  app: TestApp;
  clock: FixedClock;
  agent: string;
  /** A client whose token may act on `agent` (paths are absolute). */
  http: Http;
  worker: SchedulerWorker;
  /** POST/GET/PATCH under `/v1/agents/<agent>`. */
  post(path: string, body?: object): Reply;
  get(path: string): Reply;
  patch(path: string, body: object): Reply;
  /** `POST activations`, expected to answer 200: the reply body. */
  activate(body?: object): Promise<any>;
  turn(turnId: string): TurnCalls;
  eventsOf(agentId: string): Promise<StoredEvent[]>;
  /**
   * Lets the worker evaluate the agent until it writes nothing more, then waits for the read
   * models. The worker's deadline timer runs on real time: after moving the clock, this pokes.
   */
  settled(): Promise<void>;
  /** Decisions recorded since the last call (after settling), oldest first. */
  newDecisions(): Promise<any[]>;
}

/** `kind:reason` of each decision. */
export const kinds = (decisions: any[]): string[] => decisions.map((d) => `${d.kind}:${d.reason}`);

export function schedulerSuite(
  options: { scheduler?: boolean; env?: Record<string, string>; isolated?: string } = {},
): SchedulerSuite {
  const agent = freshId('agent');
  const base = `/v1/agents/${agent}`;
  const s = { agent, clock: new FixedClock(new Date()) } as SchedulerSuite;
  let seen = -1n;
  s.post = (path, body = {}) => s.http('POST', `${base}${path}`, body);
  s.get = (path) => s.http('GET', `${base}${path}`);
  s.patch = (path, body) => s.http('PATCH', `${base}${path}`, body);
  s.activate = async (body = {}) => {
    const reply = await s.post('/activations', body);
    expect(reply.status).toBe(200);
    // The worker looks at the open turn now: a busy machine could otherwise reach the agent only
    // after the test has ended the turn, and the turn_in_progress decision would never be made.
    await s.settled();
    return reply.body;
  };
  s.turn = (turnId) => ({
    round: (round_id, text, calls = []) =>
      s.post(`/turns/${turnId}/rounds`, {
        round_id,
        text,
        tool_calls: calls.map(([tool_call_id, name]) => ({ tool_call_id, name })),
      }),
    close: (roundId) => s.post(`/turns/${turnId}/rounds/${roundId}/close`),
    heartbeat: (body = {}) => s.post(`/turns/${turnId}/heartbeat`, body),
    end: (terminal_kind, last_assistant_message) =>
      s.post(`/turns/${turnId}/terminal`, { terminal_kind, last_assistant_message }),
  });
  s.settled = async () => {
    for (let pass = 0; options.scheduler !== false; pass++) {
      if (pass === 20) throw new Error(`the scheduler never came to rest for ${agent}`);
      const before = (await s.eventsOf(agent)).length;
      s.worker.poke(agent);
      await s.worker.idle();
      if ((await s.eventsOf(agent)).length === before) break;
    }
    await projected(s.app);
  };
  s.newDecisions = async () => {
    await s.settled();
    const fresh = (await s.get('/decisions?limit=100')).body.items
      .filter((d: any) => BigInt(d.revision) > seen)
      .reverse();
    if (fresh.length) seen = BigInt(fresh.at(-1).revision);
    return fresh;
  };
  beforeAll(async () => {
    // The worker evaluates every agent of its store: it gets a schema of its own, so it never
    // writes into the agents of suites running beside it on the same Postgres.
    // `isolated`: a schema of its own without the worker too (a spec that parks its agent).
    const isolated = options.scheduler === false ? options.isolated : 'scheduler_e2e';
    const env = isolated ? { DATABASE_URL: await isolatedDatabaseUrl(isolated), ...options.env } : options.env;
    s.app = await startTestApp({
      scheduler: options.scheduler !== false,
      clock: s.clock,
      tokens: `tok-admin=*;tok-host=${agent}`,
      env,
    });
    const store = s.app.runtime.app.get<EventStore>(EVENT_STORE);
    if (options.scheduler !== false) s.worker = s.app.runtime.app.get<SchedulerWorker>(SCHEDULER_WORKER);
    s.http = httpClient(s.app, 'tok-host');
    s.eventsOf = (agentId) => store.readStream(agentStream(agentId));
    expect((await s.http('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
  });
  afterAll(() => s.app?.close());
  return s;
}
