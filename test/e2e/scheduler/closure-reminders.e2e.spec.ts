import { randomUUID } from 'node:crypto';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { eventually } from '@app/event-store/testing';
import { projected } from '../../support/http';
import { openApiValidator, type OpenApiValidator } from '../../support/openapi';
import { schedulerSuite } from './scheduler-suite';

/**
 * Closure, the runtime posture and reminders over HTTP (docs/domain-contract.md §2, issue 17
 * items 4-5): GET state says how the agent's work stands and why; decisions carry the closure they
 * were decided on; the round, round-close, heartbeat and activation replies carry the reminders,
 * at the thresholds of the settings; a poison event of the agent makes its closure `failed`.
 * Every reply is checked against the OpenAPI document (strictly).
 */
describe('closure and reminders over HTTP', () => {
  const s = schedulerSuite({
    scheduler: false,
    isolated: 'closure',
    env: { REMINDER_ROUNDS_WITHOUT_CHANGE: '2', REMINDER_STALE_TODO_ROUNDS: '3' },
  });
  let validator: OpenApiValidator;
  const STATE = '/v1/agents/{agent_id}/state';

  beforeAll(async () => {
    validator = openApiValidator(await (await fetch(`${s.app.baseUrl}/docs-json`)).json());
  });

  const state = async () => {
    await projected(s.app);
    const reply = await s.get('/state');
    expect(reply.status).toBe(200);
    validator.check('GET', STATE, 200, reply.headers.get('content-type'), reply.body);
    return reply.body;
  };
  const ok = async (reply: Promise<{ status: number; body: any; headers: Headers }>, template: string) => {
    const { status, body, headers } = await reply;
    expect(status).toBeLessThan(300);
    validator.check('POST', template, status, headers.get('content-type'), body);
    return body;
  };
  const TURN = '/v1/agents/{agent_id}/turns/{turn_id}';

  it('a fresh agent is completed (nothing waiting), with no last turn and no runtime error', async () => {
    expect(await state()).toMatchObject({
      posture: 'awake_idle',
      runtime_posture: 'awake_idle',
      last_turn_terminal: null,
      runtime_error: null,
      closure: { closure: 'completed', reason: 'nothing_waiting', evidence: [] },
      next_decision: { kind: 'Sleep', closure: { closure: 'completed' } },
    });
  });

  it('an active blocking task: posture awaiting_task, closure waiting on the task; its result makes work runnable', async () => {
    expect((await s.post('/tasks', { task_id: 'build', kind: 'ci', wait_policy: 'blocking' })).status).toBe(201);
    expect(await state()).toMatchObject({
      posture: 'awake_idle',
      runtime_posture: 'awaiting_task',
      closure: { closure: 'waiting', reason: 'waiting_task', evidence: ['task:build:queued:blocking'] },
    });
    expect((await s.post('/tasks/build/status', { status: 'completed', detail: 'green' })).status).toBe(200);
    expect(await state()).toMatchObject({
      runtime_posture: 'awake_idle',
      closure: { closure: 'continuable', reason: 'runnable_work' },
    });
    // Nobody waited for its result: it is reduced, and nothing is left.
    const served = await s.activate();
    expect(served.decision).toMatchObject({ kind: 'ReduceMessageOnly', closure: { closure: 'continuable' } });
    expect((await state()).closure).toMatchObject({ closure: 'completed', reason: 'nothing_waiting' });
  });

  it('a turn: reminders on its rounds, round closes and heartbeats; closure on the decisions', async () => {
    const todos = [
      { text: 'draft the parser', state: 'in_progress' },
      { text: 'ship it', state: 'pending' },
    ];
    expect((await s.post('/work-items', { work_item_id: 'w-1', objective: 'parse', todo_list: todos })).status).toBe(
      201,
    );
    expect((await s.post('/work-items/w-1/pick', {})).status).toBe(200);
    expect((await s.post('/messages', { kind: 'internal_followup', body: 'go on' })).status).toBe(201);
    const activation = await ok(s.post('/activations'), '/v1/agents/{agent_id}/activations');
    expect(activation.decision).toMatchObject({ kind: 'StartModelTurn', closure: { closure: 'continuable' } });
    expect(activation.context.reminders).toEqual([]);
    const turnId = activation.turn.turn_id as string;
    const turn = s.turn(turnId);
    expect((await state()).closure).toEqual({
      closure: 'continuable',
      reason: 'turn_in_progress',
      evidence: [`turn:${turnId}:open`],
    });

    expect((await ok(turn.round('r-1', 'reading'), `${TURN}/rounds`)).reminders).toEqual([]);
    const second = await ok(turn.round('r-2', 'still reading'), `${TURN}/rounds`);
    expect(second.reminders).toEqual([
      {
        kind: 'rounds_without_work_item_change',
        work_item_id: 'w-1',
        detail: expect.stringContaining('2 assistant rounds without a work-item change'),
      },
    ]);
    const beat = await ok(turn.heartbeat(), `${TURN}/heartbeat`);
    expect(beat.reminders.map((r: any) => r.kind)).toEqual(['rounds_without_work_item_change']);
    await ok(turn.round('r-3', 'and more'), `${TURN}/rounds`);
    const closed = await ok(turn.close('r-3'), `${TURN}/rounds/{round_id}/close`);
    expect(closed.reminders).toEqual([
      expect.objectContaining({ kind: 'rounds_without_work_item_change', work_item_id: 'w-1' }),
      {
        kind: 'stale_in_progress_todo',
        work_item_id: 'w-1',
        todo: { text: 'draft the parser', state: 'in_progress' },
        detail: expect.stringContaining('unchanged for 3 assistant rounds'),
      },
    ]);

    // Completing with unfinished todos: the runtime keeps them as they are, and reminds.
    await ok(turn.round('r-4', 'Parser drafted; shipping is left.'), `${TURN}/rounds`);
    expect((await s.post('/work-items/w-1/complete', { round_id: 'r-4' })).status).toBe(200);
    const completed = await ok(turn.close('r-4'), `${TURN}/rounds/{round_id}/close`);
    expect(completed.reminders).toEqual([
      {
        kind: 'completed_with_unfinished_todos',
        work_item_id: 'w-1',
        todo: { text: 'draft the parser', state: 'in_progress' },
        detail: expect.stringContaining('completed with 2 unfinished todos'),
      },
    ]);
    expect((await s.get('/work-items/w-1')).body.todo_list).toEqual(todos);

    expect((await turn.end('failed', 'the build broke')).status).toBe(200);
    expect(await state()).toMatchObject({
      last_turn_terminal: { turn_id: turnId, terminal_kind: 'failed', recovery: null },
      runtime_error: null,
      closure: { closure: 'failed', reason: 'last_turn_failed', evidence: [`turn:${turnId}:failed`] },
    });
    const decisions = (await s.get('/decisions?limit=100')).body.items;
    expect(decisions.length).toBeGreaterThan(0);
    for (const decision of decisions) expect(CLOSURES).toContain(decision.closure.closure);
  });

  it('the next activation context carries the completion reminder; a completed last turn closes the work', async () => {
    expect((await s.post('/messages', { kind: 'internal_followup', body: 'wrap up' })).status).toBe(201);
    const activation = await ok(s.post('/activations'), '/v1/agents/{agent_id}/activations');
    expect(activation.context.reminders.map((r: any) => [r.kind, r.work_item_id])).toEqual([
      ['completed_with_unfinished_todos', 'w-1'],
    ]);
    expect((await s.get('/context')).body.reminders).toEqual(activation.context.reminders);
    expect((await s.turn(activation.turn.turn_id).end('completed', 'done')).status).toBe(200);
    expect((await state()).closure).toEqual({
      closure: 'completed',
      reason: 'last_turn_completed',
      evidence: [`turn:${activation.turn.turn_id}:completed`],
    });
  });

  it('a poison event of the agent (dead-lettered, the agent parked): closure failed, runtime_error names the letter', async () => {
    const store = s.app.runtime.app.get<EventStore>(EVENT_STORE);
    const stream = agentStream(s.agent);
    const { position } = await store.appendToStream(
      stream,
      [{ id: randomUUID(), type: 'FromTheFuture', data: {}, metadata: {} }],
      (await store.streamRevision(stream))!,
    );
    const parked = await eventually(
      'the closure to say failed',
      async () => (await s.get('/state')).body,
      (body) => body.closure?.closure === 'failed',
      { timeoutMs: 10_000, intervalMs: 50 },
    );
    expect(parked).toMatchObject({
      runtime_error: {
        source: 'dead_letter',
        projection: 'read_models',
        position: position.toString(),
        event_type: 'FromTheFuture',
      },
      closure: { reason: 'runtime_error', evidence: [`dead_letter:read_models:${position}:FromTheFuture`] },
      next_decision: { closure: { closure: 'failed', reason: 'runtime_error' } },
    });
    validator.check('GET', STATE, 200, 'application/json', parked);
  });
});

const CLOSURES = ['completed', 'continuable', 'failed', 'waiting'];
