import { randomUUID } from 'node:crypto';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { eventually } from '@app/event-store/testing';
import type { TestApp } from '../../../support/app';
import { projected } from '../../../support/http';
import type { documentedClient } from './openapi-client';

// Two acts of test/e2e/platform/openapi-replies.e2e.spec.ts (the file would be too long in one).

type Client = ReturnType<typeof documentedClient>;

/** The agent host's loop over HTTP: a task, messages, control, activations, a turn with rounds and its terminal. */
export async function hostActs(app: TestApp, client: Client, a: { agent_id: string }): Promise<void> {
  const { ok, call } = client;
  const task = { ...a, task_id: 't-1' };
  await ok('POST', '/v1/agents/{agent_id}/tasks', {
    params: a,
    body: {
      task_id: 't-1',
      kind: 'build',
      wait_policy: 'background',
      work_item_id: 'w-1',
      expected_duration_ms: 60_000,
    },
  });
  await ok('POST', '/v1/agents/{agent_id}/tasks/{task_id}/heartbeat', { params: task, body: {} });
  await ok('POST', '/v1/agents/{agent_id}/tasks/{task_id}/status', {
    params: task,
    body: { status: 'running', detail: 'go' },
  });
  const stale = await ok('POST', '/v1/agents/{agent_id}/tasks/{task_id}/status', {
    params: task,
    body: { status: 'queued' },
  });
  expect(stale.warnings).toEqual([expect.objectContaining({ kind: 'stale_task_status_ignored' })]);
  const dropped = await ok('POST', '/v1/agents/{agent_id}/messages', {
    params: a,
    body: { kind: 'operator_prompt', body: 'never mind', priority: 'background' },
  });
  await ok('DELETE', '/v1/agents/{agent_id}/messages/{message_id}', {
    params: { ...a, message_id: dropped.message.id },
  });
  await ok('POST', '/v1/agents/{agent_id}/messages', {
    params: a,
    body: { kind: 'operator_prompt', body: { ask: 'ship it' }, priority: 'next' },
  });
  await ok('POST', '/v1/agents/{agent_id}/control', { params: a, body: { action: 'start' } });
  // The queued ticks and events reduce first (each step is one reply); then the prompt opens a turn.
  let activation = await ok('POST', '/v1/agents/{agent_id}/activations', {
    params: a,
    body: { lease_ttl_ms: 60_000 },
  });
  for (let step = 0; step < 10 && activation.decision.kind !== 'StartModelTurn'; step += 1)
    activation = await ok('POST', '/v1/agents/{agent_id}/activations', { params: a, body: { lease_ttl_ms: 60_000 } });
  expect(activation.decision.kind).toBe('StartModelTurn');
  const turn = { ...a, turn_id: activation.turn.turn_id };
  await ok('POST', '/v1/agents/{agent_id}/turns/{turn_id}/heartbeat', { params: turn, body: {} });
  await ok('POST', '/v1/agents/{agent_id}/turns/{turn_id}/rounds', {
    params: turn,
    body: { round_id: 'r-1', text: 'planning', tool_calls: [{ tool_call_id: 'c-1', name: 'update_work_item' }] },
  });
  const second = await ok('POST', '/v1/agents/{agent_id}/turns/{turn_id}/rounds', {
    params: turn,
    body: { round_id: 'r-2', text: 'Shipped: all green.' },
  });
  expect(second.closed_round).toMatchObject({ round_id: 'r-1' });
  await ok('POST', '/v1/agents/{agent_id}/work-items/{work_item_id}/complete', {
    params: { ...a, work_item_id: 'w-1' },
    body: { round_id: 'r-2' },
  });
  const closed = await ok('POST', '/v1/agents/{agent_id}/turns/{turn_id}/rounds/{round_id}/close', {
    params: { ...turn, round_id: 'r-2' },
    body: {},
  });
  expect(closed.promotion).toMatchObject({ work_item_id: 'w-1' });
  await ok('POST', '/v1/agents/{agent_id}/turns/{turn_id}/terminal', {
    params: turn,
    body: { terminal_kind: 'completed', last_assistant_message: 'done' },
  });
  const again = await call('POST', '/v1/agents/{agent_id}/turns/{turn_id}/terminal', {
    params: turn,
    body: { terminal_kind: 'failed' },
  });
  expect(again.status).toBe(422);
  await ok('POST', '/v1/agents/{agent_id}/activations', { params: a, body: {} });
  await projected(app);
  await ok('GET', '/v1/agents/{agent_id}/tasks', { params: a });
  await ok('GET', '/v1/agents/{agent_id}/messages', { params: a, query: { status: 'all' } });
}

/** Health, a rebuild, an archive with nothing to archive, and two poison events: the dead letters, a failed retry and the skips. */
export async function adminActs(app: TestApp, client: Client): Promise<void> {
  const { ok, call } = client;
  await ok('GET', '/health');
  await ok('GET', '/health/live');
  await ok('GET', '/health/ready');
  await ok('POST', '/v1/admin/projections/rebuild');
  await ok('GET', '/v1/admin/projections');
  await ok('POST', '/v1/agents', { body: { agent_id: 'oa-archive' } });
  const archived = await ok('POST', '/v1/admin/agents/{agent_id}/archive', {
    params: { agent_id: 'oa-archive' },
    body: { completed_before: new Date().toISOString() },
  });
  expect(archived).toMatchObject({ archived: false, work_item_ids: [] });
  const store = app.runtime.app.get<EventStore>(EVENT_STORE);
  const poison = async (agentId: string) => {
    await ok('POST', '/v1/agents', { body: { agent_id: agentId } });
    const { revision } = await store
      .readStream(agentStream(agentId))
      .then((events) => ({ revision: events.at(-1)!.revision }));
    const { position } = await store.appendToStream(
      agentStream(agentId),
      [{ id: randomUUID(), type: 'FromTheFuture', data: {}, metadata: {} }],
      revision,
    );
    return position.toString();
  };
  const first = await poison('oa-poison-1');
  const second = await poison('oa-poison-2');
  const stalled = await eventually(
    'a stalled projection',
    () => call('GET', '/health/ready'),
    (r) => r.status === 503,
    { timeoutMs: 10_000, intervalMs: 50 },
  );
  expect(stalled.body.error.details.reason).toBe('projection_stalled');
  const letters = { name: 'read_models' };
  await eventually(
    'two dead letters',
    () => ok('GET', '/v1/admin/projections/{name}/dead-letters', { params: letters }),
    (r) => r.letters.length === 2,
    { timeoutMs: 10_000, intervalMs: 50 },
  );
  const retried = await ok('POST', '/v1/admin/projections/{name}/dead-letters/{position}/retry', {
    params: { ...letters, position: second },
    body: {},
  });
  expect(retried.outcome).toBe('failed');
  for (const position of [first, second])
    await ok('POST', '/v1/admin/projections/{name}/dead-letters/{position}/skip', {
      params: { ...letters, position },
      body: { reason: 'e2e' },
    });
  expect(
    (
      await call('POST', '/v1/admin/projections/{name}/dead-letters/{position}/skip', {
        params: { ...letters, position: first },
        body: { reason: 'e2e' },
      })
    ).status,
  ).toBe(409);
  expect((await call('GET', '/v1/admin/projections', { token: 'tok-b' })).status).toBe(403);
  await ok('GET', '/metrics');
  await ok('GET', '/v1/admin/refusals', { query: { limit: '5' } });
  expect((await call('GET', '/v1/admin/refusals', { token: 'tok-b' })).status).toBe(403);
}
