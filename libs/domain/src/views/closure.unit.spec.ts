import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { schedulerProjection } from '../scheduler/scheduler-projection';
import { at, cmd, registered, todo } from '../testing/fixtures';
import { tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import type { TerminalKind } from '../turn/turn.state';
import { type ClosureInputs, closureOf, lastTurnTerminal, runtimeError, runtimePosture } from './closure';

// docs/domain-contract.md §2 "Closure" (issue 17 item 4, ADR 0030): given a history, when closure
// is derived, then the first rule of the precedence that holds decides, with its evidence.

const given = (...commands: AgentCommand[]): AgentEvent[] => history([registered()], ...commands);
const closure = (events: AgentEvent[], inputs: ClosureInputs = {}) => closureOf(replay(events), inputs);

/** An operator prompt, a turn opened on it, and the turn ended with `kind` (none: left open). */
const turn = (id: string, kind: TerminalKind | null): AgentCommand[] => [
  wcmd.enqueue(`m-${id}`),
  tcmd.startTurn(id, `m-${id}`),
  ...(kind === null ? [] : [tcmd.terminal(id, kind)]),
];

const DEAD_LETTER = { projection: 'read_models', position: '42', revision: '7', event_type: 'TimerCreated' };
const LATE = at(24 * 60);

describe('closure: the first rule that holds decides', () => {
  it('given a fresh agent, then it is completed: nothing waiting', () => {
    expect(closure(given())).toEqual({ closure: 'completed', reason: 'nothing_waiting', evidence: [] });
  });

  it('given a dead letter of the agent, then it failed (runtime_error), whatever else holds', () => {
    const events = given(cmd.create('w-1', { plan_status: 'needs_input' }), ...turn('t-1', null));
    expect(closure(events, { dead_letter: DEAD_LETTER })).toEqual({
      closure: 'failed',
      reason: 'runtime_error',
      evidence: ['dead_letter:read_models:42:TimerCreated'],
    });
    expect(runtimeError(replay(events), { dead_letter: DEAD_LETTER })).toEqual({
      source: 'dead_letter',
      ...DEAD_LETTER,
    });
  });

  it('given a last turn over its baseline budget, then it failed (runtime_error), even with a timer waiting', () => {
    const events = given(...turn('t-1', 'baseline_over_budget'), wcmd.createTimer('tm-1', { fire_at: at(90) }));
    expect(closure(events)).toEqual({
      closure: 'failed',
      reason: 'runtime_error',
      evidence: ['turn:t-1:baseline_over_budget'],
    });
    expect(runtimeError(replay(events))).toMatchObject({ source: 'turn_terminal', turn_id: 't-1' });
  });

  it('given a message quarantined after its third interruption, then it failed (runtime_error)', () => {
    const interrupted = (id: string, minute: number): AgentCommand[] => [
      tcmd.startTurn(id, 'm-q', at(minute)),
      tcmd.expire(id, at(minute + 2)),
    ];
    const events = given(
      wcmd.enqueue('m-q'),
      ...interrupted('t-1', 60),
      ...interrupted('t-2', 70),
      ...interrupted('t-3', 80),
    );
    expect(lastTurnTerminal(replay(events))).toMatchObject({
      turn_id: 't-3',
      terminal_kind: 'interrupted',
      recovery: 'quarantined',
    });
    expect(closure(events)).toEqual({
      closure: 'failed',
      reason: 'runtime_error',
      evidence: ['turn:t-3:interrupted:quarantined'],
    });
  });

  it('given an interrupted turn whose message was requeued, then the work is continuable (it replays)', () => {
    const events = given(wcmd.enqueue('m-q'), tcmd.startTurn('t-1', 'm-q', at(60)), tcmd.expire('t-1', at(62)));
    expect(closure(events)).toEqual({
      closure: 'continuable',
      reason: 'runnable_work',
      evidence: ['message:m-q:operator_prompt'],
    });
  });

  it('given an item that needs input, or an operator wait, then it is waiting for the operator', () => {
    expect(closure(given(cmd.create('w-1', { plan_status: 'needs_input' })))).toEqual({
      closure: 'waiting',
      reason: 'waiting_operator',
      evidence: ['needs_input:w-1'],
    });
    expect(closure(given(wcmd.waitFor('i-1', null, { wake: 'operator_input' })))).toMatchObject({
      closure: 'waiting',
      reason: 'waiting_operator',
      evidence: ['intent:i-1:operator_input:agent'],
    });
  });

  it('given an operator wait and a turn in progress, then waiting wins over the turn', () => {
    const events = given(...turn('t-1', null), wcmd.waitFor('i-1', null, { wake: 'operator_input' }));
    expect(closure(events)).toMatchObject({ closure: 'waiting', reason: 'waiting_operator' });
  });

  it('given an active blocking task, then it is waiting for the task; a background task is no wait', () => {
    expect(closure(given(wcmd.createTask('t-b', { wait_policy: 'blocking' })))).toEqual({
      closure: 'waiting',
      reason: 'waiting_task',
      evidence: ['task:t-b:queued:blocking'],
    });
    expect(closure(given(wcmd.createTask('t-bg')))).toMatchObject({ closure: 'completed', reason: 'nothing_waiting' });
    const ended = given(wcmd.createTask('t-b', { wait_policy: 'blocking' }), wcmd.taskStatus('t-b', 'completed'));
    expect(closure(ended)).toMatchObject({ closure: 'continuable', reason: 'runnable_work' });
  });

  it('given a task_result wait on a background task, then the task is awaited (waiting_task)', () => {
    const events = given(wcmd.createTask('t-bg'), wcmd.waitFor('i-1', null, { wake: 'task_result', resource: 't-bg' }));
    expect(closure(events)).toEqual({
      closure: 'waiting',
      reason: 'waiting_task',
      evidence: ['task:t-bg:queued:background'],
    });
  });

  it('given an active external wait, then it is waiting on the intent', () => {
    const events = given(
      cmd.create('w-1'),
      wcmd.waitFor('i-1', 'w-1', { wake: 'external', resource: 'pr', callback_token_hash: 'sha256:1' }),
    );
    expect(closure(events)).toEqual({
      closure: 'waiting',
      reason: 'waiting_intent',
      evidence: ['intent:i-1:external:w-1'],
    });
  });

  it('given a scheduled timer and nothing else, then it is waiting on the timer', () => {
    expect(closure(given(wcmd.createTimer('tm-1', { fire_at: at(90) })))).toEqual({
      closure: 'waiting',
      reason: 'waiting_timer',
      evidence: [`timer:tm-1:${at(90)}`],
    });
  });

  it('given a turn in progress and nothing awaited, then it is continuable', () => {
    expect(closure(given(...turn('t-1', null)))).toEqual({
      closure: 'continuable',
      reason: 'turn_in_progress',
      evidence: ['turn:t-1:open'],
    });
  });

  it('given a last turn that failed, then it failed, before any runnable work', () => {
    const events = given(...turn('t-1', 'failed'), cmd.create('w-1'), wcmd.enqueue('m-2'));
    expect(closure(events)).toEqual({ closure: 'failed', reason: 'last_turn_failed', evidence: ['turn:t-1:failed'] });
  });

  it('given a last turn that failed and a wait, then waiting wins', () => {
    const events = given(...turn('t-1', 'failed'), wcmd.createTimer('tm-1', { fire_at: at(90) }));
    expect(closure(events)).toMatchObject({ closure: 'waiting', reason: 'waiting_timer' });
  });

  it('given runnable work (a queued message, a wake hint, a runnable item), then it is continuable', () => {
    expect(closure(given(wcmd.enqueue('m-1')))).toEqual({
      closure: 'continuable',
      reason: 'runnable_work',
      evidence: ['message:m-1:operator_prompt'],
    });
    expect(closure(given(cmd.create('w-1'), cmd.pick('w-1')))).toEqual({
      closure: 'continuable',
      reason: 'runnable_work',
      evidence: ['runnable:w-1'],
    });
    const hinted = given(...turn('t-1', null), wcmd.wakeHint({ message_id: 'm-h' }), tcmd.terminal('t-1', 'completed'));
    expect(closure(hinted)).toEqual({ closure: 'continuable', reason: 'runnable_work', evidence: ['wake_hint:ci'] });
  });

  it('given a runnable item whose continue_active tick a turn already consumed, then it is still continuable', () => {
    const events = given(cmd.create('w-1'), cmd.pick('w-1'), ...turn('t-1', 'completed'));
    expect(closure(events)).toMatchObject({
      closure: 'continuable',
      reason: 'runnable_work',
      evidence: ['runnable:w-1'],
    });
  });

  it('given a last turn that completed and nothing left, then it is completed (last_turn_completed)', () => {
    const events = given(
      cmd.create('w-1', { todo_list: [todo('a', 'completed')] }),
      ...turn('t-1', 'completed'),
      cmd.complete('w-1'),
    );
    expect(closure(events)).toEqual({
      closure: 'completed',
      reason: 'last_turn_completed',
      evidence: ['turn:t-1:completed'],
    });
  });

  it('given a blocked item without any wait and an aborted last turn, then nothing is waiting: completed', () => {
    const events = given(cmd.create('w-1'), cmd.update('w-1', { blocked_by: 'CI is red' }), ...turn('t-1', 'aborted'));
    expect(closure(events)).toEqual({ closure: 'completed', reason: 'nothing_waiting', evidence: [] });
  });

  it('is part of the scheduler projection, with the last turn terminal and the runtime error', () => {
    const projection = schedulerProjection(replay(given(...turn('t-1', 'failed'))), LATE);
    expect(projection.closure).toMatchObject({ closure: 'failed', reason: 'last_turn_failed' });
    expect(projection.last_turn_terminal).toMatchObject({ turn_id: 't-1', terminal_kind: 'failed', recovery: null });
    expect(projection.runtime_error).toBeNull();
    expect(schedulerProjection(replay(given()), LATE, { dead_letter: DEAD_LETTER }).closure.closure).toBe('failed');
  });
});

describe('runtime posture: awaiting_task', () => {
  const blocking = wcmd.createTask('t-b', { wait_policy: 'blocking' });

  it('given an idle agent with an active blocking task and nothing else to run, then it is awaiting_task', () => {
    expect(runtimePosture(replay(given(blocking)))).toBe('awaiting_task');
  });

  it('given the same agent asleep, then it is awaiting_task too', () => {
    const state = replay(given(blocking));
    expect(runtimePosture({ ...state, posture: 'asleep' })).toBe('awaiting_task');
  });

  it('given something else that can run (a runnable item, a queued message), then the folded posture stays', () => {
    expect(runtimePosture(replay(given(blocking, cmd.create('w-1'))))).toBe('awake_idle');
    expect(runtimePosture(replay(given(blocking, wcmd.enqueue('m-1'))))).toBe('awake_idle');
  });

  it('given a turn running, a paused or a stopped agent, then the folded posture stays', () => {
    expect(runtimePosture(replay(given(blocking, ...turn('t-1', null))))).toBe('awake_running');
    expect(runtimePosture(replay(given(blocking, wcmd.control('pause'))))).toBe('paused');
    expect(runtimePosture(replay(given(blocking, wcmd.control('stop'))))).toBe('stopped');
  });

  it('given only a background task, then the posture stays awake_idle (task presence is not a wait)', () => {
    expect(runtimePosture(replay(given(wcmd.createTask('t-bg'))))).toBe('awake_idle');
  });
});
