import { waitingSuite } from './waiting-suite';

describe('the callback capability over HTTP', () => {
  const s = waitingSuite();

  /** A fresh external wait: its item, intent and the token shown once. */
  async function externalWait(delivery_mode?: string) {
    const item = await s.item('wait for the deploy');
    const reply = await s.scoped('POST', `${s.base}/work-items/${item}/wait`, {
      wake: 'external',
      reason: 'the deploy finished',
      resource: 'deploy:prod',
      delivery_mode,
    });
    expect(reply.status).toBe(201);
    return { item, intent: reply.body.waiting_intent, token: reply.body.callback_token as string };
  }
  const callback = (token: string, body: object, headers?: Record<string, string>) =>
    s.anonymous('POST', `/v1/callbacks/${token}`, body, headers);

  it('triggers right after WaitFor with no API token; the intent stays active and the blocker stays', async () => {
    const { item, intent, token } = await externalWait();
    const reply = await callback(token, { source: 'deployer', payload: { version: '1.4.2' } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: 'triggered',
      waiting_intent_id: intent.id,
      trigger_count: 1,
      last_triggered_at: expect.any(String),
      warnings: [],
      revision: expect.stringMatching(/^\d+$/),
      position: expect.stringMatching(/^\d+$/),
    });
    const events = await s.eventsOf(s.mine);
    const triggered = events.find((e) => e.type === 'WaitingIntentTriggered' && e.data.intent_id === intent.id);
    expect(triggered?.data).toMatchObject({ provenance: { via: 'callback', actor: 'callback' }, has_payload: true });
    expect(triggered?.metadata).toMatchObject({ actor: 'callback' });
    await s.projected();
    expect((await s.scoped('GET', `${s.base}/work-items/${item}`)).body).toMatchObject({
      blocked_by: 'the deploy finished',
      has_triggered_waits: true,
    });
  });

  it('appends nothing for a redelivered event_id, and counts a new one', async () => {
    const { intent, token } = await externalWait('enqueue_message');
    const first = await callback(token, { source: 'deployer', event_id: 'delivery-1', payload: 'done' });
    expect(first.status).toBe(200);
    const written = await s.written(s.mine);
    const again = await callback(token, { source: 'deployer', event_id: 'delivery-1', payload: 'done' });
    expect(again.body).toEqual(first.body);
    expect(await s.written(s.mine)).toBe(written);
    const next = await callback(token, { source: 'deployer', event_id: 'delivery-2' });
    expect(next.body).toMatchObject({ waiting_intent_id: intent.id, trigger_count: 2 });
    await s.projected();
    const queue = await s.scoped('GET', `${s.base}/messages?status=all&limit=100`);
    const events = queue.body.items.filter((m: any) => m.causation_id === intent.id);
    expect(events.map((m: any) => [m.kind, m.authority, m.correlation_id])).toEqual([
      ['callback_event', 'integration_signal', 'delivery-2'],
      ['callback_event', 'integration_signal', 'delivery-1'],
    ]);
  });

  it('answers the same 404 for a malformed, tampered, foreign or cancelled token, appending nothing', async () => {
    const { intent, token } = await externalWait();
    const parts = token.split('.');
    const tampered = [...parts.slice(0, 3), Buffer.alloc(32, 1).toString('base64url')].join('.');
    const foreign = [parts[0], Buffer.from(s.other).toString('base64url'), parts[2], parts[3]].join('.');
    const written = await s.written(s.mine);
    const replies = await Promise.all(
      ['nonsense', 'cb1.x.y.z', tampered, foreign].map((t) => callback(t, { source: 'x' })),
    );
    for (const reply of replies) {
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual(replies[0].body);
    }
    expect(await s.written(s.mine)).toBe(written);
    await s.scoped('DELETE', `${s.base}/waiting-intents/${intent.id}`);
    const cancelled = await callback(token, { source: 'x' });
    expect(cancelled.status).toBe(404);
    expect(cancelled.body).toEqual(replies[0].body);
  });

  it('refuses an unknown field or a missing source with 400', async () => {
    const { token } = await externalWait();
    expect((await callback(token, { source: 'x', trust: 'full' })).status).toBe(400);
    expect((await callback(token, {})).status).toBe(400);
  });

  it('never shows the token in GET replies nor stores it in events (only its hash)', async () => {
    const { item, token } = await externalWait();
    await callback(token, { source: 'deployer', event_id: 'e-1' });
    await s.projected();
    const reads = await Promise.all([
      s.scoped('GET', `${s.base}/waiting-intents?limit=100`),
      s.scoped('GET', `${s.base}/work-items/${item}`),
      s.scoped('GET', `${s.base}/work-items?limit=100`),
      s.scoped('GET', `${s.base}/messages?status=all&limit=100`),
    ]);
    const secret = token.split('.')[3];
    for (const read of reads) expect(JSON.stringify(read.body)).not.toContain(secret);
    const stored = JSON.stringify(
      (await s.eventsOf(s.mine)).map((e) => ({ type: e.type, data: e.data, metadata: e.metadata })),
    );
    expect(stored).not.toContain(secret);
    expect(stored).toContain('callback_token_hash');
  });
});
