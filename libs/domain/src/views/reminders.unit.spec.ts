import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { cmd, registered, todo } from '../testing/fixtures';
import { tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { contextProjection } from './context';
import { type ReminderSettings, remindersOf } from './reminders';

// docs/domain-contract.md §2 "Reminders" (issue 17 item 5): given a history, when the reminders
// are derived at some thresholds, then they name the item and the todo concerned.

const SETTINGS: ReminderSettings = { rounds_without_work_item_change: 3, stale_todo_rounds: 4 };
const given = (...commands: AgentCommand[]): AgentEvent[] => history([registered()], ...commands);
const reminders = (events: AgentEvent[], settings = SETTINGS) => remindersOf(replay(events), settings);

/** w-1 focused with one todo in progress, and turn t-1 open on an operator prompt. */
const working = (): AgentCommand[] => [
  cmd.create('w-1', { todo_list: [todo('write the parser', 'in_progress'), todo('ship it')] }),
  cmd.pick('w-1'),
  wcmd.enqueue('m-1'),
  tcmd.startTurn('t-1', 'm-1'),
];
const rounds = (turnId: string, from: number, count: number): AgentCommand[] =>
  Array.from({ length: count }, (_, i) => tcmd.round(turnId, `r-${from + i}`, `round ${from + i}`));

describe('reminders', () => {
  it('given fewer rounds than the thresholds, then there is none', () => {
    expect(reminders(given(...working(), ...rounds('t-1', 1, 2)))).toEqual([]);
  });

  it('given N rounds without a work-item mutation, then a rounds_without_work_item_change reminder names the item', () => {
    expect(reminders(given(...working(), ...rounds('t-1', 1, 3)))).toEqual([
      {
        kind: 'rounds_without_work_item_change',
        work_item_id: 'w-1',
        detail: expect.stringContaining('3 assistant rounds without a work-item change'),
      },
    ]);
  });

  it('given a work-item mutation after some rounds, then the count starts again from it', () => {
    const events = given(
      ...working(),
      ...rounds('t-1', 1, 2),
      cmd.update('w-1', { objective: 'a sharper objective' }),
      ...rounds('t-1', 3, 2),
    );
    const kinds = (e: AgentEvent[]) => reminders(e).map((r) => r.kind);
    expect(kinds(events)).toEqual(['stale_in_progress_todo']);
    expect(kinds(given(...working(), ...rounds('t-1', 1, 2), cmd.pick('w-1'), ...rounds('t-1', 3, 2)))).toEqual([
      'stale_in_progress_todo',
    ]);
  });

  it('given the count reached in one turn, then the next activation context still carries it (until a mutation)', () => {
    const events = given(
      ...working(),
      ...rounds('t-1', 1, 3),
      tcmd.terminal('t-1', 'completed'),
      wcmd.enqueue('m-2'),
      tcmd.startTurn('t-2', 'm-2'),
    );
    expect(contextProjection(replay(events), { reminders: SETTINGS }).reminders.map((r) => r.kind)).toEqual([
      'rounds_without_work_item_change',
    ]);
  });

  it('given no open item worked on, then no rounds reminder (nothing to update)', () => {
    const events = given(wcmd.enqueue('m-1'), tcmd.startTurn('t-1', 'm-1'), ...rounds('t-1', 1, 5));
    expect(reminders(events)).toEqual([]);
  });

  it('given an in_progress todo unchanged for M rounds, then a stale_in_progress_todo reminder names it', () => {
    const events = given(
      ...working(),
      ...rounds('t-1', 1, 2),
      cmd.update('w-1', { objective: 'o' }),
      ...rounds('t-1', 3, 2),
    );
    expect(reminders(events)).toEqual([
      {
        kind: 'stale_in_progress_todo',
        work_item_id: 'w-1',
        todo: { text: 'write the parser', state: 'in_progress' },
        detail: expect.stringContaining('unchanged for 4 assistant rounds'),
      },
    ]);
  });

  it('given the todo list replaced with the same todo still in progress, then its mark is kept', () => {
    const keep = cmd.update('w-1', {
      todo_list: [todo('write the parser', 'in_progress'), todo('ship it', 'completed')],
    });
    const events = given(...working(), ...rounds('t-1', 1, 2), keep, ...rounds('t-1', 3, 2));
    expect(reminders(events).map((r) => r.kind)).toEqual(['stale_in_progress_todo']);
  });

  it('given the in_progress todo changed (done, or another one started), then the mark starts again', () => {
    const next = cmd.update('w-1', {
      todo_list: [todo('write the parser', 'completed'), todo('ship it', 'in_progress')],
    });
    expect(reminders(given(...working(), ...rounds('t-1', 1, 2), next, ...rounds('t-1', 3, 2)))).toEqual([]);
  });

  it('given todos whose texts are object keys (__proto__, constructor), then they are marked and kept like any other text, through a snapshot too', () => {
    const odd = (state: 'in_progress' | 'pending') =>
      cmd.update('w-1', { todo_list: [todo('__proto__', state), todo('constructor', 'in_progress')] });
    const events = given(
      ...working(),
      odd('in_progress'),
      ...rounds('t-1', 1, 2),
      odd('in_progress'),
      ...rounds('t-1', 3, 2),
    );
    const state = replay(events);
    const marks = state.progress.in_progress_since['w-1'];
    // A dictionary without a prototype (progress.state.ts, `dictionary`): no hidden class per new text.
    expect(Object.getPrototypeOf(marks)).toBeNull();
    expect(Object.entries(marks)).toEqual([
      ['__proto__', 0],
      ['constructor', 0],
    ]);
    expect(JSON.parse(JSON.stringify(state.progress))).toEqual(state.progress);
    const stale = remindersOf(state, SETTINGS).flatMap((r) =>
      r.kind === 'stale_in_progress_todo' && r.todo ? [r.todo.text] : [],
    );
    expect(stale).toEqual(['__proto__', 'constructor']);
  });

  it('given the thresholds at 0, then those reminders are off', () => {
    const events = given(...working(), ...rounds('t-1', 1, 10));
    expect(reminders(events, { rounds_without_work_item_change: 0, stale_todo_rounds: 0 })).toEqual([]);
  });

  it('given an item completed with unfinished todos in a turn, then a reminder names its first unfinished todo, into the next turn only', () => {
    const inTurn = given(
      ...working(),
      tcmd.round('t-1', 'r-1', 'Done.'),
      tcmd.completeIn('w-1', 'r-1'),
      tcmd.closeRound('t-1', 'r-1'),
    );
    const expected = {
      kind: 'completed_with_unfinished_todos',
      work_item_id: 'w-1',
      todo: { text: 'write the parser', state: 'in_progress' },
      detail: expect.stringContaining('completed with 2 unfinished todos (1 pending, 1 in progress)'),
    };
    expect(reminders(inTurn)).toEqual([expected]);
    const nextTurn = history(
      inTurn,
      tcmd.terminal('t-1', 'completed'),
      wcmd.enqueue('m-2'),
      tcmd.startTurn('t-2', 'm-2'),
    );
    expect(contextProjection(replay(nextTurn), { reminders: SETTINGS }).reminders).toEqual([expected]);
    const later = history(
      nextTurn,
      tcmd.terminal('t-2', 'completed'),
      wcmd.enqueue('m-3'),
      tcmd.startTurn('t-3', 'm-3'),
    );
    expect(reminders(later)).toEqual([]);
  });

  it('given an item completed with every todo done, then no completion reminder', () => {
    const events = given(cmd.create('w-1', { todo_list: [todo('a', 'completed')] }), cmd.complete('w-1'));
    expect(reminders(events)).toEqual([]);
  });

  it('never edits a todo: the reminders leave the state as it is', () => {
    const events = given(...working(), ...rounds('t-1', 1, 6));
    const state = replay(events);
    const before = JSON.stringify(state);
    remindersOf(state, SETTINGS);
    expect(JSON.stringify(state)).toBe(before);
    expect(state.work_items.get('w-1')?.todo_list).toEqual([todo('write the parser', 'in_progress'), todo('ship it')]);
  });
});
