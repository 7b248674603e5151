import { randomUUID } from 'node:crypto';
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { AgentState } from '@app/domain';
import { PROJECTION_RUNNER, type ProjectionRunner } from '@app/read-models';
import { startTestApp, type TestApp } from '../../support/app';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { isolatedDatabaseUrl } from '../../support/postgres';

const TOKENS = 'tok-admin=*';
const PAIRS = 200;
// 200 pairs take seconds, longer on a loaded machine: no timing is asserted.
jest.setTimeout(180_000);

/**
 * Issue 16 item 1 over gRPC, with the projector in another process (RUNTIME_ROLE=api beside
 * RUNTIME_ROLE=projector on one database): the API process is woken by the projector's
 * LISTEN/NOTIFY announcements of its checkpoint (docs/decisions/0023).
 */
describe('read-your-writes over gRPC, the projector in another process', () => {
  let api: TestApp;
  let projector: TestApp;
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let admin: ReturnType<ReturnType<typeof runtimeGrpcClient>['as']>;
  const agent = `rywg-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    const url = await isolatedDatabaseUrl('ryw_grpc');
    // The API first: it migrates the schema the projector then reads.
    api = await startTestApp({
      tokens: TOKENS,
      // Hundreds of calls in a few seconds: the per-token rate limit is not what this spec is about.
      env: { DATABASE_URL: url, RUNTIME_ROLE: 'api', MIN_POSITION_WAIT_MS: '2000', RUNTIME_RATE_LIMIT: 'off' },
    });
    projector = await startTestApp({ tokens: TOKENS, env: { DATABASE_URL: url, RUNTIME_ROLE: 'projector' } });
    grpc = runtimeGrpcClient(api);
    admin = grpc.as('tok-admin');
    expect((await admin('RegisterAgent', { agent_id: agent })).error).toBeNull();
    expect((await admin('CreateWorkItem', { agent_id: agent, work_item_id: 'w-1', objective: 'o' })).error).toBeNull();
  });
  afterAll(async () => {
    grpc?.close();
    await projector?.close();
    await api?.close();
  });

  it('runs no projector in the API process', () => {
    expect(() => api.runtime.app.get(PROJECTION_RUNNER, { strict: false })).toThrow();
  });

  /** The i-th pair: UpdateWorkItem then GetWorkItem, RegisterAgent then GetAgent, EnqueueMessage then ListMessages. */
  function pair(i: number) {
    const at = (p: string | null) => (p === null ? {} : { min_position: p });
    switch (i % 3) {
      case 0: {
        const objective = `objective ${i} ${randomUUID()}`;
        return {
          write: () => admin('UpdateWorkItem', { agent_id: agent, work_item_id: 'w-1', objective }),
          read: (p: string | null) => admin('GetWorkItem', { agent_id: agent, work_item_id: 'w-1', ...at(p) }),
          fresh: (reply: any) => reply?.objective === objective,
        };
      }
      case 1: {
        const id = `${agent}-n${i}`;
        return {
          write: () => admin('RegisterAgent', { agent_id: id }),
          read: (p: string | null) => admin('GetAgent', { agent_id: id, ...at(p) }),
          fresh: (reply: any) => reply?.agent_id === id,
        };
      }
      default: {
        const text = `message ${i} ${randomUUID()}`;
        return {
          write: () => admin('EnqueueMessage', { agent_id: agent, kind: 'operator_prompt', body: { text } }),
          read: (p: string | null) => admin('ListMessages', { agent_id: agent, status: 'all', limit: 500, ...at(p) }),
          fresh: (reply: any) => (reply?.items ?? []).some((m: any) => m.body?.text === text),
        };
      }
    }
  }

  it('answers every read with min_position after its write: 0 stale reads in 200 pairs', async () => {
    let stale = 0;
    for (let i = 0; i < PAIRS; i++) {
      const p = pair(i);
      const written = await p.write();
      expect(written.error).toBeNull();
      expect(written.reply.position).toMatch(/^\d+$/);
      const read = await p.read(written.reply.position);
      expect(read.error).toBeNull();
      if (!p.fresh(read.reply)) stale++;
    }
    expect(stale).toBe(0);
  });

  it('without min_position, counts the reads that missed their write (measured, not asserted)', async () => {
    let stale = 0;
    for (let i = 0; i < PAIRS; i++) {
      const p = pair(i + PAIRS);
      expect((await p.write()).error).toBeNull();
      const read = await p.read(null);
      // Stale: an older reply, or NOT_FOUND for an agent the read models do not have yet; any other error is a
      // failure. How many were stale is reported, not a rule.
      if (read.error) expect(read.error.code).toBe(GrpcStatus.NOT_FOUND);
      if (read.error || !p.fresh(read.reply)) stale++;
    }
    console.log(
      `read-your-writes (gRPC, projector in another process): ${stale} of ${PAIRS} reads without min_position were stale`,
    );
  });

  it('refuses a malformed min_position: INVALID_ARGUMENT validation_failed naming the field, on reads of the store too', async () => {
    for (const [method, extra] of [
      ['GetWorkItem', { work_item_id: 'w-1' }],
      ['ListTasks', {}],
      ['GetPlan', { work_item_id: 'w-1' }],
    ] as const) {
      for (const bad of ['abc', '-1', '1.5', '18446744073709551616']) {
        const refusal = refusalOf(await admin(method, { agent_id: agent, ...extra, min_position: bad }));
        expect(refusal).toMatchObject({
          code: GrpcStatus.INVALID_ARGUMENT,
          errorCode: 'validation_failed',
          details: { field: 'min_position' },
        });
      }
    }
  });

  it('answers UNAVAILABLE read_model_lagging with a retry-after trailer while the projector is stopped, then the read', async () => {
    const runner = projector.runtime.app.get<ProjectionRunner<AgentState>>(PROJECTION_RUNNER);
    await runner.stop();
    let position: string;
    try {
      const created = await admin('CreateWorkItem', { agent_id: agent, work_item_id: 'w-stop', objective: 'o' });
      expect(created.error).toBeNull();
      const written = await admin('UpdateWorkItem', {
        agent_id: agent,
        work_item_id: 'w-stop',
        objective: 'while stopped',
      });
      position = written.reply.position;
      const result = await admin('GetWorkItem', { agent_id: agent, work_item_id: 'w-stop', min_position: position });
      expect(refusalOf(result)).toMatchObject({
        code: GrpcStatus.UNAVAILABLE,
        errorCode: 'read_model_lagging',
        details: { min_position: position, projections: [{ projection: 'read_models', reason: 'behind' }] },
      });
      expect(result.error?.metadata.get('retry-after')).toEqual(['1']);
      // The store reads ignore it: they include every write already.
      const plan = await admin('GetPlan', { agent_id: agent, work_item_id: 'w-stop', min_position: position });
      expect(plan.error).toBeNull();
    } finally {
      await runner.start();
    }
    const read = await admin('GetWorkItem', { agent_id: agent, work_item_id: 'w-stop', min_position: position });
    expect(read.error).toBeNull();
    expect(read.reply.objective).toBe('while stopped');
  });
});
