import { freshId } from '../../support/postgres';
import { waitingSuite } from './waiting-suite';

describe('tasks, timers and wake hints over HTTP', () => {
  const s = waitingSuite();
  const task = (body: object, headers?: Record<string, string>) => s.scoped('POST', `${s.base}/tasks`, body, headers);
  const status = (taskId: string, body: object) => s.scoped('POST', `${s.base}/tasks/${taskId}/status`, body);

  describe('tasks', () => {
    it('creates a queued task (201) with a generated or a caller id; a repeated key answers the same', async () => {
      const key = { 'idempotency-key': freshId('task') };
      const created = await task({ kind: 'build', wait_policy: 'background', summary: 'compile it' }, key);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        task: { kind: 'build', status: 'queued', wait_policy: 'background', terminal: false },
        warnings: [],
      });
      expect(created.body.task.id).toMatch(/^task_[0-9a-f]{32}$/);
      expect((await task({ kind: 'build', wait_policy: 'background', summary: 'compile it' }, key)).body).toEqual(
        created.body,
      );
      expect((await task({ task_id: 't-named', kind: 'test', wait_policy: 'blocking' })).body.task.id).toBe('t-named');
      expect((await task({ task_id: 't-named', kind: 'test', wait_policy: 'blocking' })).status).toBe(409);
    });

    it('moves forward only: a stale running after completed is 200 with a warning and no change', async () => {
      const id = (await task({ kind: 'deploy', wait_policy: 'background' })).body.task.id;
      expect((await status(id, { status: 'running' })).body).toMatchObject({
        task: { status: 'running' },
        warnings: [],
      });
      const done = await status(id, { status: 'completed', detail: 'deployed' });
      expect(done.status).toBe(200);
      expect(done.body.task).toMatchObject({ status: 'completed', detail: 'deployed', terminal: true });
      const written = await s.written(s.mine);
      const stale = await status(id, { status: 'running' });
      expect(stale.status).toBe(200);
      expect(stale.body.task).toMatchObject({ status: 'completed' });
      expect(stale.body.warnings).toEqual([
        expect.objectContaining({
          kind: 'stale_task_status_ignored',
          current_status: 'completed',
          requested_status: 'running',
        }),
      ]);
      expect(await s.written(s.mine)).toBe(written);
    });

    it('resolves a task wait on a terminal status and clears the blocker only while it still equals the reason', async () => {
      const [kept, cleared] = [await s.item('keeps its blocker'), await s.item('gets unblocked')];
      const [t1, t2] = [
        (await task({ kind: 'a', wait_policy: 'blocking' })).body.task.id,
        (await task({ kind: 'b', wait_policy: 'blocking' })).body.task.id,
      ];
      await s.scoped('POST', `${s.base}/work-items/${cleared}/wait`, {
        wake: 'task_result',
        reason: 'task a finishes',
        resource: t1,
      });
      await s.scoped('POST', `${s.base}/work-items/${kept}/wait`, {
        wake: 'task_result',
        reason: 'task b finishes',
        resource: t2,
      });
      await s.scoped('PATCH', `${s.base}/work-items/${kept}`, { blocked_by: 'also waiting for the operator' });
      await status(t1, { status: 'completed' });
      await status(t2, { status: 'failed', detail: 'boom' });
      await s.projected();
      expect((await s.scoped('GET', `${s.base}/work-items/${cleared}`)).body).toMatchObject({
        blocked_by: null,
        has_active_waits: false,
        readiness: 'runnable',
      });
      expect((await s.scoped('GET', `${s.base}/work-items/${kept}`)).body).toMatchObject({
        blocked_by: 'also waiting for the operator',
        has_active_waits: false,
      });
      const intents = await s.scoped('GET', `${s.base}/waiting-intents?status=resolved&limit=100`);
      expect(intents.body.items.map((i: any) => i.resource)).toEqual(expect.arrayContaining([t1, t2]));
      const results = await s.scoped('GET', `${s.base}/messages?limit=100`);
      expect(results.body.items.filter((m: any) => m.kind === 'task_result').map((m: any) => m.task_id)).toEqual(
        expect.arrayContaining([t1, t2]),
      );
    });

    it('lists tasks newest first by filter, and refuses bad input', async () => {
      await s.projected();
      const terminal = await s.scoped('GET', `${s.base}/tasks?filter=terminal&limit=100`);
      expect(terminal.status).toBe(200);
      expect(terminal.body.total).toBeGreaterThanOrEqual(3);
      expect(terminal.body.items.every((t: any) => t.terminal)).toBe(true);
      expect((await s.scoped('GET', `${s.base}/tasks?filter=done`)).status).toBe(400);
      expect((await task({ kind: 'x' })).status).toBe(400);
      expect((await task({ kind: 'x', wait_policy: 'background', trust: 1 })).status).toBe(400);
      expect((await task({ kind: 'x', wait_policy: 'background', work_item_id: 'missing' })).status).toBe(404);
      expect((await status('missing', { status: 'running' })).status).toBe(404);
      expect((await status('bad%2Fid', { status: 'running' })).status).toBe(400);
      expect(
        (await s.scoped('POST', `/v1/agents/${s.other}/tasks`, { kind: 'x', wait_policy: 'background' })).status,
      ).toBe(403);
    });
  });

  describe('timers', () => {
    it('creates (201), lists soonest first with `due`, and cancels idempotently', async () => {
      const later = await s.scoped('POST', `${s.base}/timers`, {
        duration_ms: 3_600_000,
        resume_text: 'check the queue',
      });
      expect(later.status).toBe(201);
      expect(later.body).toMatchObject({
        timer: { status: 'scheduled', resume_text: 'check the queue', interval_ms: null },
        warnings: [],
      });
      const sooner = await s.scoped('POST', `${s.base}/timers`, {
        fire_at: '2098-01-01T00:00:00Z',
        interval_ms: 60_000,
      });
      expect(sooner.body.timer).toMatchObject({ fire_at: '2098-01-01T00:00:00Z', interval_ms: 60_000 });
      const due = await s.scoped('POST', `${s.base}/timers`, { fire_at: '2020-01-01T00:00:00Z' });
      expect(due.body.warnings).toEqual([expect.objectContaining({ kind: 'timer_already_due' })]);
      await s.projected();
      const list = await s.scoped('GET', `${s.base}/timers?status=scheduled&limit=100`);
      const mine = list.body.items.filter((t: any) => [later.body.timer.id, sooner.body.timer.id].includes(t.id));
      expect(mine.map((t: any) => [t.id, t.due])).toEqual([
        [later.body.timer.id, false],
        [sooner.body.timer.id, false],
      ]);
      const cancelled = await s.scoped('DELETE', `${s.base}/timers/${later.body.timer.id}`);
      expect(cancelled.body).toMatchObject({ cancelled: true, timer: { status: 'cancelled' } });
      const written = await s.written(s.mine);
      const again = await s.scoped('DELETE', `${s.base}/timers/${later.body.timer.id}`);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ cancelled: false, timer: { status: 'cancelled' } });
      expect(await s.written(s.mine)).toBe(written);
      expect((await s.scoped('DELETE', `${s.base}/timers/missing`)).status).toBe(404);
    });

    it.each([
      ['both fire_at and duration_ms', { fire_at: '2099-01-01T00:00:00Z', duration_ms: 10 }],
      ['neither', { resume_text: 'x' }],
      ['an interval under one second', { duration_ms: 10, interval_ms: 10 }],
      ['a wrong type', { duration_ms: 'soon' }],
      ['an unknown field', { duration_ms: 10, repeat: true }],
    ])('refuses %s with 400', async (_name, body) => {
      expect((await s.scoped('POST', `${s.base}/timers`, body)).status).toBe(400);
    });
  });

  describe('wake hints', () => {
    it('answers 202: triggered on an idle agent with an empty queue, then coalesced while a message waits', async () => {
      const agent = freshId('agent');
      await s.admin('POST', '/v1/agents', { agent_id: agent });
      const first = await s.admin('POST', `/v1/agents/${agent}/wake-hints`, { source: 'cron', reason: 'hourly check' });
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({
        disposition: 'triggered',
        message: { kind: 'system_tick', priority: 'next', liveness_only: true },
        warnings: [],
      });
      await s.admin('POST', `/v1/agents/${agent}/messages`, { kind: 'operator_prompt', body: 'pending work' });
      const second = await s.admin('POST', `/v1/agents/${agent}/wake-hints`, {
        source: 'cron',
        reason: 'again',
        body: { note: 'x' },
      });
      expect(second.status).toBe(202);
      expect(second.body).toMatchObject({ disposition: 'coalesced', message: null });
      expect((await s.admin('POST', `/v1/agents/${agent}/wake-hints`, { source: 'cron' })).status).toBe(400);
      expect((await s.scoped('POST', `/v1/agents/${agent}/wake-hints`, { source: 'cron', reason: 'r' })).status).toBe(
        403,
      );
    });
  });
});
