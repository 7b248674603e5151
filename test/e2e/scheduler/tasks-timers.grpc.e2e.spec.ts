import { status as GrpcStatus } from '@grpc/grpc-js';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { schedulerSuite } from './scheduler-suite';

/**
 * Issue 15 loose ends over gRPC, with the scheduler worker on a clock the spec moves:
 * TaskHeartbeat renews a task's lease (and is refused once the lease lapsed), and Timer carries
 * `missed_periods` as HTTP does.
 */
describe('task heartbeats and missed timer periods over gRPC', () => {
  const s = schedulerSuite();
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  const call = (method: string, request: object = {}) =>
    grpc.call(method, { agent_id: s.agent, ...request }, 'tok-host');
  const ok = async (method: string, request: object = {}): Promise<any> => {
    const result = await call(method, request);
    expect(result.error).toBeNull();
    return result.reply;
  };

  beforeAll(() => {
    grpc = runtimeGrpcClient(s.app);
  });
  afterAll(() => grpc?.close());

  it('TaskHeartbeat renews the lease from now; after the lease lapsed the task is interrupted and a heartbeat is refused', async () => {
    const start = s.clock.now().getTime();
    const created = await ok('CreateTask', {
      task_id: 't-deploy',
      kind: 'deploy',
      wait_policy: 'background',
      expected_duration_ms: 60_000,
    });
    expect(created.task).toMatchObject({
      expected_duration_ms: 60_000,
      lease_expires_at: new Date(start + 60_000).toISOString(),
    });
    s.clock.advance(50_000);
    const beat = await ok('TaskHeartbeat', { task_id: 't-deploy' });
    expect(beat.task).toMatchObject({
      status: 'queued',
      lease_expires_at: new Date(start + 110_000).toISOString(),
      last_heartbeat_at: new Date(start + 50_000).toISOString(),
    });
    const longer = await ok('TaskHeartbeat', { task_id: 't-deploy', expected_duration_ms: 120_000 });
    expect(longer.task).toMatchObject({
      expected_duration_ms: 120_000,
      lease_expires_at: new Date(start + 170_000).toISOString(),
    });
    await s.settled();
    const http = (await s.get('/tasks?filter=all')).body.items.find((t: any) => t.id === 't-deploy');
    expect(http).toMatchObject({ lease_expires_at: longer.task.lease_expires_at, overdue: false });

    s.clock.advance(121_000);
    await s.settled();
    const listed = (await ok('ListTasks', { filter: 'all' })).items.find((t: any) => t.id === 't-deploy');
    expect(listed).toMatchObject({ status: 'interrupted', interrupt_reason: 'lease_expired' });
    expect(refusalOf(await call('TaskHeartbeat', { task_id: 't-deploy' }))).toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
      errorCode: 'invariant_violated',
    });
    expect(refusalOf(await call('TaskHeartbeat', { task_id: 't-none' })).code).toBe(GrpcStatus.NOT_FOUND);
  });

  it('Timer has missed_periods: an interval timer held while paused fires once on resume with the period it missed', async () => {
    const timer = (await ok('CreateTimer', { duration_ms: '60000', interval_ms: '60000', resume_text: 'poll' })).timer;
    expect(timer).toMatchObject({ fire_count: 0, missed_periods: 0 });
    await ok('Control', { action: 'pause' });
    await s.newDecisions();
    for (let period = 0; period < 3; period++) {
      s.clock.advance(60_000);
      await s.newDecisions();
    }
    await ok('Control', { action: 'resume' });
    await s.newDecisions();
    const listed = (await ok('ListTimers', { status: 'all' })).items.find((t: any) => t.id === timer.id);
    const http = (await s.get('/timers?status=all')).body.items.find((t: any) => t.id === timer.id);
    expect(listed).toMatchObject({ fire_count: 2, missed_periods: 1 });
    expect(listed.missed_periods).toBe(http.missed_periods);
  });
});
