import { freshId } from '../../support/postgres';
import { waitingSuite } from './waiting-suite';

describe('messages and control over HTTP', () => {
  const s = waitingSuite();
  /** A fresh agent of the admin's: queue and posture start empty and awake. */
  async function freshAgent(): Promise<string> {
    const agent = freshId('agent');
    expect((await s.admin('POST', '/v1/agents', { agent_id: agent })).status).toBe(201);
    return agent;
  }
  const enqueue = (agent: string, body: object, headers?: Record<string, string>) =>
    s.admin('POST', `/v1/agents/${agent}/messages`, body, headers);
  const control = (agent: string, action: string) => s.admin('POST', `/v1/agents/${agent}/control`, { action });
  const queued = async (agent: string) => {
    await s.projected();
    return (await s.admin('GET', `/v1/agents/${agent}/messages`)).body;
  };

  describe('enqueue', () => {
    it('queues a message with the authority of its kind (201), text or JSON object body; a repeated key appends nothing', async () => {
      const key = { 'idempotency-key': freshId('msg') };
      const text = await s.scoped(
        'POST',
        `${s.base}/messages`,
        { kind: 'operator_prompt', body: 'summarise the day' },
        key,
      );
      expect(text.status).toBe(201);
      expect(text.body).toMatchObject({
        message: {
          kind: 'operator_prompt',
          body: 'summarise the day',
          priority: 'normal',
          origin: 'api',
          authority: 'operator_instruction',
          status: 'queued',
        },
        warnings: [],
      });
      expect(text.body.message.id).toMatch(/^msg_[0-9a-f]{32}$/);
      const written = await s.written(s.mine);
      expect(
        (await s.scoped('POST', `${s.base}/messages`, { kind: 'operator_prompt', body: 'summarise the day' }, key))
          .body,
      ).toEqual(text.body);
      expect(await s.written(s.mine)).toBe(written);
      const json = await s.scoped('POST', `${s.base}/messages`, {
        kind: 'webhook_event',
        body: { pr: 7, action: 'merged' },
        origin: 'github',
        correlation_id: 'gh-7',
      });
      expect(json.body.message).toMatchObject({
        body: { pr: 7, action: 'merged' },
        origin: 'github',
        correlation_id: 'gh-7',
        // The authority comes from the kind (docs/decisions/0022); this old-form token has every agent role.
        authority: 'integration_signal',
      });
    });

    it.each([
      ['a trust field', { kind: 'operator_prompt', body: 'x', trust: 'high' }, 'trust'],
      ['an authority field', { kind: 'operator_prompt', body: 'x', authority: 'runtime_instruction' }, 'authority'],
      ['a runtime-owned kind', { kind: 'system_tick', body: 'x' }, 'runtime_owned_kind'],
      ['a body of the wrong type', { kind: 'operator_prompt', body: 42 }, 'body'],
      ['an array body', { kind: 'operator_prompt', body: ['x'] }, 'body'],
      ['an unknown priority', { kind: 'operator_prompt', body: 'x', priority: 'urgent' }, 'priority'],
      ['a bad work item id', { kind: 'operator_prompt', body: 'x', work_item_id: '../x' }, 'work_item_id'],
    ])('refuses %s with 400, writing nothing', async (_name, body, detail) => {
      const written = await s.written(s.mine);
      const reply = await s.scoped('POST', `${s.base}/messages`, body);
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.body.error)).toContain(detail);
      expect(await s.written(s.mine)).toBe(written);
    });

    it('answers 401 without a token, 403 for another agent (nothing written), 404 for an unknown item', async () => {
      const body = { kind: 'operator_prompt', body: 'x' };
      expect((await s.anonymous('POST', `${s.base}/messages`, body)).status).toBe(401);
      const written = await s.written(s.other);
      expect((await s.scoped('POST', `/v1/agents/${s.other}/messages`, body)).status).toBe(403);
      expect((await s.scoped('DELETE', `/v1/agents/${s.other}/messages/m-1`)).status).toBe(403);
      expect(await s.written(s.other)).toBe(written);
      expect((await s.scoped('POST', `${s.base}/messages`, { ...body, work_item_id: 'missing' })).status).toBe(404);
    });
  });

  describe('the queue', () => {
    it('lists queued messages by priority band, FIFO within a band; drops a queued one once', async () => {
      const agent = await freshAgent();
      const ids: Record<string, string> = {};
      for (const [name, priority] of [
        ['n1', 'normal'],
        ['bg', 'background'],
        ['n2', 'normal'],
        ['int', 'interject'],
        ['nx', 'next'],
      ]) {
        ids[name] = (await enqueue(agent, { kind: 'operator_prompt', body: name, priority })).body.message.id;
      }
      expect((await queued(agent)).items.map((m: any) => m.body)).toEqual(['int', 'nx', 'n1', 'n2', 'bg']);
      const dropped = await s.admin('DELETE', `/v1/agents/${agent}/messages/${ids.n1}`);
      expect(dropped.status).toBe(200);
      expect(dropped.body).toMatchObject({ dropped: true, message: { status: 'dropped' } });
      const written = await s.written(agent);
      expect((await s.admin('DELETE', `/v1/agents/${agent}/messages/${ids.n1}`)).body).toMatchObject({
        dropped: false,
      });
      expect(await s.written(agent)).toBe(written);
      expect(await queued(agent)).toMatchObject({ total: 4 });
      expect(
        (await s.admin('GET', `/v1/agents/${agent}/messages?status=dropped`)).body.items.map((m: any) => m.id),
      ).toEqual([ids.n1]);
      expect((await s.admin('DELETE', `/v1/agents/${agent}/messages/missing`)).status).toBe(404);
      expect((await s.admin('GET', `/v1/agents/${agent}/messages?status=lost`)).status).toBe(400);
    });
  });

  describe('control', () => {
    it('stop ignores wake hints but still records task results; start wakes it idle', async () => {
      const agent = await freshAgent();
      const taskId = (await s.admin('POST', `/v1/agents/${agent}/tasks`, { kind: 'crawl', wait_policy: 'background' }))
        .body.task.id;
      const stopped = await control(agent, 'stop');
      expect(stopped.status).toBe(200);
      expect(stopped.body).toMatchObject({
        previous_posture: 'awake_idle',
        posture: 'stopped',
        changed: true,
        agent: { posture: 'stopped' },
        warnings: [],
      });
      const written = await s.written(agent);
      expect((await control(agent, 'stop')).body).toMatchObject({ changed: false, posture: 'stopped' });
      expect(await s.written(agent)).toBe(written);
      const hint = await s.admin('POST', `/v1/agents/${agent}/wake-hints`, { source: 'cron', reason: 'tick' });
      expect(hint.status).toBe(202);
      expect(hint.body).toMatchObject({ disposition: 'ignored', message: null });
      expect(
        (await s.admin('POST', `/v1/agents/${agent}/tasks/${taskId}/status`, { status: 'completed' })).body.task.status,
      ).toBe('completed');
      expect((await queued(agent)).items).toEqual([expect.objectContaining({ kind: 'task_result', task_id: taskId })]);
      expect((await control(agent, 'start')).body).toMatchObject({
        previous_posture: 'stopped',
        posture: 'awake_idle',
        changed: true,
      });
    });

    it('pause keeps messages queued until resume', async () => {
      const agent = await freshAgent();
      expect((await control(agent, 'pause')).body).toMatchObject({ posture: 'paused', changed: true });
      await enqueue(agent, { kind: 'operator_prompt', body: 'while paused' });
      await enqueue(agent, { kind: 'operator_prompt', body: 'and another' });
      expect((await queued(agent)).items.map((m: any) => [m.body, m.status])).toEqual([
        ['while paused', 'queued'],
        ['and another', 'queued'],
      ]);
      await s.projected();
      expect((await s.admin('GET', `/v1/agents/${agent}`)).body.posture).toBe('paused');
      expect((await control(agent, 'resume')).body).toMatchObject({
        previous_posture: 'paused',
        posture: 'awake_idle',
      });
      expect((await queued(agent)).total).toBe(2);
    });

    it('refuses an unknown action (400) and another agent (403, nothing written)', async () => {
      expect((await s.scoped('POST', `${s.base}/control`, { action: 'reboot' })).status).toBe(400);
      const written = await s.written(s.other);
      expect((await s.scoped('POST', `/v1/agents/${s.other}/control`, { action: 'stop' })).status).toBe(403);
      expect(await s.written(s.other)).toBe(written);
    });
  });
});
