import type { WaitingIntentRecord } from '../agent/agent.state';
import { at, completed, created, intent, picked, registered, stateOf, todo, updated } from '../testing/fixtures';
import type { AgentEvent } from '../agent/agent.events';
import { candidateClassOf } from './candidates';
import { readinessOf, schedulingStateOf } from './scheduling';
import { currentTodo, todoCounts, unfinishedTodos } from './todo';

const base = [registered(), created('w-1')];
const blocked = updated('w-1', { blocked_by: 'CI', revision: 2 });
const needsInput = updated('w-1', { plan_status: 'needs_input', revision: 2 });
const wait = (wake: WaitingIntentRecord['wake'], extra: Partial<WaitingIntentRecord> = {}) =>
  intent(`i-${wake}`, 'w-1', { wake, ...extra });

type Row = [string, AgentEvent[], WaitingIntentRecord[], string, string, string];

describe('scheduling state, readiness and candidate class of one item', () => {
  it.each<Row>([
    ['open, nothing in the way, not focused', [], [], 'runnable', 'runnable', 'queued_runnable'],
    ['open and focused', [picked('w-1')], [], 'runnable', 'runnable', 'current_runnable'],
    ['completed', [completed('w-1', 2)], [], 'completed', 'completed', 'completed_recent'],
    [
      'completed even with a stale active intent',
      [completed('w-1', 2)],
      [wait('task_result')],
      'completed',
      'completed',
      'completed_recent',
    ],
    ['needs_input', [needsInput], [], 'waiting_operator', 'waiting_for_operator', 'waiting_for_operator'],
    [
      'needs_input wins over an active task wait',
      [needsInput],
      [wait('task_result')],
      'waiting_operator',
      'waiting_for_operator',
      'waiting_for_operator',
    ],
    ['blocked_by', [blocked], [], 'blocked', 'blocked', 'blocked'],
    ['blocked and focused (inspection)', [blocked, picked('w-1')], [], 'blocked', 'blocked', 'blocked'],
    ['active task wait', [blocked], [wait('task_result')], 'waiting_task', 'blocked', 'blocked'],
    [
      'active operator wait',
      [blocked],
      [wait('operator_input')],
      'waiting_operator',
      'waiting_for_operator',
      'waiting_for_operator',
    ],
    ['active timer wait', [blocked], [wait('timer')], 'waiting_timer', 'blocked', 'blocked'],
    ['active external wait', [blocked], [wait('external')], 'waiting_external', 'blocked', 'blocked'],
    [
      'task wins over operator, timer, external',
      [blocked],
      [wait('external'), wait('timer'), wait('operator_input'), wait('task_result')],
      'waiting_task',
      'blocked',
      'blocked',
    ],
    [
      'operator wins over timer and external',
      [blocked],
      [wait('external'), wait('timer'), wait('operator_input')],
      'waiting_operator',
      'waiting_for_operator',
      'waiting_for_operator',
    ],
    ['timer wins over external', [blocked], [wait('external'), wait('timer')], 'waiting_timer', 'blocked', 'blocked'],
    ['an active wait without blocked_by still waits', [], [wait('external')], 'waiting_external', 'blocked', 'blocked'],
    [
      'a cancelled intent does not count',
      [],
      [wait('external', { status: 'cancelled' })],
      'runnable',
      'runnable',
      'queued_runnable',
    ],
    [
      'a resolved intent does not count',
      [blocked],
      [wait('task_result', { status: 'resolved' })],
      'blocked',
      'blocked',
      'blocked',
    ],
    ['an agent-scoped intent does not count', [], [intent('i-a', null)], 'runnable', 'runnable', 'queued_runnable'],
    [
      "another item's intent does not count",
      [created('w-2')],
      [intent('i-2', 'w-2')],
      'runnable',
      'runnable',
      'queued_runnable',
    ],
    [
      'triggered wait with blocked_by',
      [blocked],
      [wait('external', { trigger_count: 1, last_triggered_at: at(5) })],
      'waiting_external',
      'blocked',
      'triggered_blocked',
    ],
    [
      'triggered wait and focused',
      [blocked, picked('w-1')],
      [wait('external', { trigger_count: 2 })],
      'waiting_external',
      'blocked',
      'triggered_blocked',
    ],
    [
      'triggered operator wait with blocked_by',
      [blocked],
      [wait('operator_input', { trigger_count: 1 })],
      'waiting_operator',
      'waiting_for_operator',
      'triggered_blocked',
    ],
    [
      'triggered wait without blocked_by',
      [],
      [wait('external', { trigger_count: 1 })],
      'waiting_external',
      'blocked',
      'blocked',
    ],
    [
      'a triggered but cancelled intent is not triggered',
      [blocked],
      [wait('external', { trigger_count: 1, status: 'cancelled' })],
      'blocked',
      'blocked',
      'blocked',
    ],
  ])('%s', (_name, events, intents, scheduling, readiness, candidateClass) => {
    const state = stateOf([...base, ...events], intents);
    const item = state.work_items.get('w-1')!;
    expect(schedulingStateOf(state, item)).toBe(scheduling);
    expect(readinessOf(state, item)).toBe(readiness);
    expect(candidateClassOf(state, item)).toBe(candidateClass);
  });
});

describe('current todo', () => {
  it.each([
    ['empty list', [], null],
    [
      'first in_progress wins over an earlier pending',
      [todo('a'), todo('b', 'in_progress'), todo('c', 'in_progress')],
      todo('b', 'in_progress'),
    ],
    ['else the first pending', [todo('a', 'completed'), todo('b'), todo('c')], todo('b')],
    ['all completed', [todo('a', 'completed')], null],
  ])('%s', (_name, list, expected) => {
    expect(currentTodo(list)).toEqual(expected);
  });

  it('counts and samples unfinished todos in list order', () => {
    const list = [
      todo('a', 'completed'),
      todo('b'),
      todo('c', 'in_progress'),
      todo('d'),
      todo('e'),
      todo('f'),
      todo('g'),
    ];
    expect(todoCounts(list)).toEqual({ pending: 5, in_progress: 1, completed: 1, unfinished: 6 });
    expect(unfinishedTodos(list, 5).map((t) => t.text)).toEqual(['b', 'c', 'd', 'e', 'f']);
  });
});
