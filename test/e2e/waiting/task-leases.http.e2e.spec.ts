import { schedulerSuite } from '../scheduler/scheduler-suite';

/**
 * Task leases over HTTP (docs/domain-contract.md §3 Tasks): the executor's heartbeats renew the
 * lease; once it lapses the scheduler worker (woken at the deadline, no polling) interrupts the
 * task with `lease_expired`, triggers its waits and queues its result; a later terminal from the
 * executor replaces the interruption and is delivered.
 */
describe('task leases over HTTP', () => {
  const s = schedulerSuite();
  const task = async (id: string) =>
    (await s.get('/tasks?filter=all')).body.items.find((item: any) => item.id === id) as any;

  it('renews with heartbeats, marks an overdue task, interrupts it at the deadline, and takes a late result', async () => {
    expect((await s.post('/work-items', { work_item_id: 'w-build', objective: 'Ship the build' })).status).toBe(201);
    const created = await s.post('/tasks', {
      task_id: 't-build',
      kind: 'build',
      wait_policy: 'blocking',
      work_item_id: 'w-build',
      expected_duration_ms: 60_000,
    });
    expect(created.status).toBe(201);
    const start = s.clock.now().getTime();
    expect(created.body.task).toMatchObject({
      expected_duration_ms: 60_000,
      lease_expires_at: new Date(start + 60_000).toISOString(),
      interrupt_reason: null,
    });
    expect((await s.post('/tasks/t-build/status', { status: 'running' })).status).toBe(200);
    expect(
      (
        await s.post('/work-items/w-build/wait', {
          wake: 'task_result',
          resource: 't-build',
          reason: 'the build',
        })
      ).status,
    ).toBe(201);

    s.clock.advance(50_000);
    const beat = await s.post('/tasks/t-build/heartbeat', {});
    expect(beat.status).toBe(200);
    expect(beat.body.task.lease_expires_at).toBe(new Date(start + 110_000).toISOString());
    await s.settled();
    expect(await task('t-build')).toMatchObject({ status: 'running', overdue: false });

    s.clock.advance(61_000);
    await s.settled();
    expect(await task('t-build')).toMatchObject({
      status: 'interrupted',
      interrupt_reason: 'lease_expired',
      overdue: false,
    });
    const events = await s.eventsOf(s.agent);
    expect(events.find((e) => e.type === 'TaskInterrupted')?.data).toMatchObject({ reason: 'lease_expired' });
    expect(events.some((e) => e.type === 'WaitingIntentTriggered' && (e.data as any).source === 'task_lease')).toBe(
      true,
    );
    const heartbeatAfter = await s.post('/tasks/t-build/heartbeat', {});
    expect(heartbeatAfter.status).toBe(422);

    const late = await s.post('/tasks/t-build/status', { status: 'completed', detail: 'green after all' });
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ task: { status: 'completed', interrupt_reason: null }, warnings: [] });
    const results = (await s.eventsOf(s.agent)).filter(
      (e) => e.type === 'MessageQueued' && (e.data as any).kind === 'task_result',
    );
    expect(results.map((e) => (e.data as any).body.status)).toEqual(['interrupted', 'completed']);
  });

  it('refuses a heartbeat for an unknown task (404) and a lease out of range (400)', async () => {
    expect((await s.post('/tasks/t-none/heartbeat', {})).status).toBe(404);
    expect((await s.post('/tasks', { kind: 'x', wait_policy: 'background', expected_duration_ms: 5 })).status).toBe(
      400,
    );
  });
});
