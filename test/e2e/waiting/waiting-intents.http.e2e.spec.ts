import { waitingSuite } from './waiting-suite';

describe('waiting intents over HTTP', () => {
  const s = waitingSuite();
  const wait = (itemId: string, body: object, headers?: Record<string, string>) =>
    s.scoped('POST', `${s.base}/work-items/${itemId}/wait`, body, headers);

  describe('WaitFor on a work item', () => {
    it('records the intent, blocks the item with the reason and releases the focus (201)', async () => {
      const item = await s.item('needs a review');
      await s.scoped('POST', `${s.base}/work-items/${item}/pick`, {});
      const reply = await wait(item, { wake: 'operator_input', reason: '  the operator reviews the draft  ' });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({
        waiting_intent: {
          scope: 'work_item',
          work_item_id: item,
          wake: 'operator_input',
          reason: 'the operator reviews the draft',
          status: 'active',
          trigger_count: 0,
          has_callback_token: false,
        },
        work_item: {
          id: item,
          blocked_by: 'the operator reviews the draft',
          is_current: false,
          scheduling_state: 'waiting_operator',
          has_active_waits: true,
        },
        warnings: [],
      });
      expect(reply.body.waiting_intent.id).toMatch(/^wait_[0-9a-f]{32}$/);
      expect(reply.body.revision).toMatch(/^\d+$/);
      expect(reply.body).not.toHaveProperty('callback_token');
    });

    it('returns a callback token once for an external wait; a repeated key answers the same reply without it', async () => {
      const item = await s.item();
      const key = { 'idempotency-key': `wait-${item}` };
      const first = await wait(item, { wake: 'external', reason: 'the CI run', resource: 'ci/build-42' }, key);
      expect(first.status).toBe(201);
      expect(first.body.callback_token).toMatch(/^cb1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(first.body.waiting_intent).toMatchObject({ wake: 'external', has_callback_token: true });
      expect(first.body.waiting_intent).not.toHaveProperty('callback_token_hash');
      const written = await s.written(s.mine);
      const again = await wait(item, { wake: 'external', reason: 'the CI run', resource: 'ci/build-42' }, key);
      expect(again.status).toBe(201);
      const { callback_token: _shownOnce, ...withoutToken } = first.body;
      expect(again.body).toEqual(withoutToken);
      expect(await s.written(s.mine)).toBe(written);
    });

    it('replaces the previous wait of the item, and a timer wait schedules its timer', async () => {
      const item = await s.item();
      const first = await wait(item, { wake: 'operator_input', reason: 'first' });
      const second = await wait(item, {
        wake: 'timer',
        reason: 'look again tomorrow',
        fire_at: '2099-01-01T00:00:00Z',
      });
      expect(second.body.waiting_intent).toMatchObject({
        wake: 'timer',
        fire_at: '2099-01-01T00:00:00Z',
        timer_id: expect.stringMatching(/^timer_/),
      });
      await s.projected();
      const intents = await s.scoped('GET', `${s.base}/waiting-intents?work_item_id=${item}`);
      expect(intents.body.total).toBe(2);
      expect(intents.body.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: second.body.waiting_intent.id, status: 'active', end_reason: null }),
          expect.objectContaining({
            id: first.body.waiting_intent.id,
            status: 'cancelled',
            end_reason: 'wait_for_replaced',
          }),
        ]),
      );
      const timers = await s.scoped('GET', `${s.base}/timers?status=scheduled`);
      expect(timers.body.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: second.body.waiting_intent.timer_id,
            intent_id: second.body.waiting_intent.id,
          }),
        ]),
      );
    });

    it.each([
      ['an unknown field', { wake: 'operator_input', reason: 'r', trust: 'high' }, 'trust'],
      ['a wrong type', { wake: 'operator_input', reason: 42 }, 'reason'],
      ['an unknown wake', { wake: 'someday', reason: 'r' }, 'wake'],
      ['an external wait without resource', { wake: 'external', reason: 'r' }, 'resource'],
      [
        'fire_at on a non-timer wait',
        { wake: 'operator_input', reason: 'r', fire_at: '2099-01-01T00:00:00Z' },
        'fire_at',
      ],
      ['an empty reason', { wake: 'operator_input', reason: '  ' }, 'reason'],
    ])('refuses %s with 400 naming the field, writing nothing', async (_name, body, field) => {
      const item = await s.item();
      const written = await s.written(s.mine);
      const reply = await wait(item, body);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('validation_failed');
      expect(JSON.stringify(reply.body.error)).toContain(field);
      expect(await s.written(s.mine)).toBe(written);
    });

    it('answers 400 for a bad path id, 401 without a token, 403 for another agent (nothing written), 404 and 422', async () => {
      const body = { wake: 'operator_input', reason: 'r' };
      expect((await wait('bad%2Fid', body)).status).toBe(400);
      expect((await s.anonymous('POST', `${s.base}/work-items/w-x/wait`, body)).status).toBe(401);
      const written = await s.written(s.other);
      expect((await s.scoped('POST', `/v1/agents/${s.other}/waits`, body)).status).toBe(403);
      expect(await s.written(s.other)).toBe(written);
      expect((await wait('missing', body)).status).toBe(404);
      const done = await s.item();
      await s.scoped('POST', `${s.base}/work-items/${done}/complete`, {});
      expect((await wait(done, body)).status).toBe(422);
    });
  });

  describe('WaitFor at agent scope', () => {
    it('records the intent only: no work item, focus untouched (201)', async () => {
      const item = await s.item();
      await s.scoped('POST', `${s.base}/work-items/${item}/pick`, {});
      const reply = await s.scoped('POST', `${s.base}/waits`, { wake: 'operator_input', reason: 'a general go-ahead' });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ waiting_intent: { scope: 'agent', work_item_id: null }, work_item: null });
      await s.projected();
      expect((await s.scoped('GET', `/v1/agents/${s.mine}`)).body.current_work_item_id).toBe(item);
    });
  });

  describe('cancel', () => {
    it('cancels once (200), then answers cancelled: false; the blocker stays; unknown is 404', async () => {
      const item = await s.item();
      const intent = (await wait(item, { wake: 'operator_input', reason: 'hold on' })).body.waiting_intent;
      const cancelled = await s.scoped('DELETE', `${s.base}/waiting-intents/${intent.id}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({
        cancelled: true,
        waiting_intent: { status: 'cancelled', end_reason: 'cancelled_by_caller' },
        warnings: [],
      });
      const written = await s.written(s.mine);
      const again = await s.scoped('DELETE', `${s.base}/waiting-intents/${intent.id}`, { note: 'again' });
      expect(again.body).toMatchObject({ cancelled: false, waiting_intent: { status: 'cancelled' } });
      expect(await s.written(s.mine)).toBe(written);
      await s.projected();
      expect((await s.scoped('GET', `${s.base}/work-items/${item}`)).body).toMatchObject({
        blocked_by: 'hold on',
        has_active_waits: false,
      });
      expect((await s.scoped('DELETE', `${s.base}/waiting-intents/missing`)).status).toBe(404);
    });
  });

  describe('trigger', () => {
    it('counts triggers on an intent that stays active, never clears the blocker, and surfaces the item as triggered_blocked', async () => {
      const item = await s.item('wait for the upstream fix');
      const intent = (
        await wait(item, { wake: 'external', reason: 'upstream fix released', resource: 'github:org/repo#1' })
      ).body.waiting_intent;
      const trigger = `${s.base}/waiting-intents/${intent.id}/trigger`;
      const first = await s.scoped('POST', trigger, {
        source: 'github',
        payload: { release: 'v1.2' },
        event_id: 'evt-1',
      });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        status: 'triggered',
        waiting_intent: {
          status: 'active',
          trigger_count: 1,
          last_trigger: { source: 'github', event_id: 'evt-1', via: 'api' },
        },
      });
      const second = await s.scoped('POST', trigger, { source: 'github' });
      expect(second.body.waiting_intent).toMatchObject({ status: 'active', trigger_count: 2, triggered: true });
      await s.projected();
      const triggered = await s.scoped('GET', `${s.base}/work-items?filter=triggered`);
      expect(triggered.body.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: item,
            candidate_class: 'triggered_blocked',
            blocked_by: 'upstream fix released',
          }),
        ]),
      );
    });

    it('enqueues a callback_event (integration_signal) for enqueue_message delivery', async () => {
      const item = await s.item();
      const body = { wake: 'external', resource: 'chat/1', reason: 'a reply', delivery_mode: 'enqueue_message' };
      const intent = (await wait(item, body)).body.waiting_intent;
      const reply = await s.scoped('POST', `${s.base}/waiting-intents/${intent.id}/trigger`, {
        source: 'chat',
        payload: 'yes, go ahead',
      });
      expect(reply.body).toMatchObject({
        disposition: null,
        message: { kind: 'callback_event', authority: 'integration_signal', body: 'yes, go ahead', work_item_id: item },
      });
    });

    it.each([
      ['operator_input', {}],
      ['timer', { fire_at: '2099-01-01T00:00:00Z' }],
    ])('refuses to trigger a %s wait from outside: 422 wake_mismatch, appending nothing', async (wake, extra) => {
      const item = await s.item();
      const intent = (await wait(item, { wake, reason: 'r', ...extra })).body.waiting_intent;
      const written = await s.written(s.mine);
      const reply = await s.scoped('POST', `${s.base}/waiting-intents/${intent.id}/trigger`, { source: 'chat' });
      expect(reply.status).toBe(422);
      expect(reply.body.error).toMatchObject({ code: 'wake_mismatch', details: { intent_id: intent.id, wake } });
      expect(await s.written(s.mine)).toBe(written);
    });

    it('refuses a cancelled intent with 409 conflict and details.status, appending nothing', async () => {
      const item = await s.item();
      const intent = (await wait(item, { wake: 'operator_input', reason: 'r' })).body.waiting_intent;
      await s.scoped('DELETE', `${s.base}/waiting-intents/${intent.id}`);
      const written = await s.written(s.mine);
      const reply = await s.scoped('POST', `${s.base}/waiting-intents/${intent.id}/trigger`, { source: 'late' });
      expect(reply.status).toBe(409);
      expect(reply.body.error).toMatchObject({ code: 'conflict', details: { status: 'cancelled' } });
      expect(await s.written(s.mine)).toBe(written);
    });

    it('answers 404 for an unknown intent and 400 for a missing source or a payload of the wrong type', async () => {
      expect((await s.scoped('POST', `${s.base}/waiting-intents/missing/trigger`, { source: 'x' })).status).toBe(404);
      const item = await s.item();
      const intent = (await wait(item, { wake: 'operator_input', reason: 'r' })).body.waiting_intent;
      expect((await s.scoped('POST', `${s.base}/waiting-intents/${intent.id}/trigger`, {})).status).toBe(400);
      expect(
        (await s.scoped('POST', `${s.base}/waiting-intents/${intent.id}/trigger`, { source: 'x', payload: 42 })).status,
      ).toBe(400);
    });
  });

  describe('list', () => {
    it('lists {items, total} by status and work item, newest first, and refuses an unknown status', async () => {
      await s.projected();
      const all = await s.scoped('GET', `${s.base}/waiting-intents?limit=2`);
      expect(all.status).toBe(200);
      expect(all.body.items).toHaveLength(2);
      expect(all.body.total).toBeGreaterThan(2);
      const active = await s.scoped('GET', `${s.base}/waiting-intents?status=active&limit=100`);
      expect(active.body.items.every((i: any) => i.status === 'active')).toBe(true);
      expect((await s.scoped('GET', `${s.base}/waiting-intents?status=sleeping`)).status).toBe(400);
      expect((await s.scoped('GET', `/v1/agents/${s.other}/waiting-intents`)).status).toBe(403);
    });
  });
});
