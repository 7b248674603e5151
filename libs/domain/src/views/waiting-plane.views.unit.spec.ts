import { evolve, replay } from '../agent/agent.evolve';
import { reviveAgentState } from '../agent/agent.state';
import { at, created, registered } from '../testing/fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { listTasks } from './task.view';
import { dueTimers, listTimers, scheduledTimers } from './timer.view';
import { listWaitingIntents } from './waiting-intent.view';

const open = [registered(), created('w-1')];

describe('waiting intent list', () => {
  const events = history(
    open,
    wcmd.waitFor('i-1', 'w-1', {}, at(61)),
    wcmd.waitFor('i-2', 'w-1', {}, at(62)),
    wcmd.waitFor('i-a', null, {}, at(63)),
  );
  const state = replay(events);

  it('lists every intent newest first, or by status and item', () => {
    expect(listWaitingIntents(state).items.map((i) => i.id)).toEqual(['i-a', 'i-2', 'i-1']);
    expect(listWaitingIntents(state, { status: 'active' })).toMatchObject({
      total: 2,
      items: [{ id: 'i-a' }, { id: 'i-2' }],
    });
    expect(listWaitingIntents(state, { status: 'cancelled' }).items.map((i) => [i.id, i.end_reason])).toEqual([
      ['i-1', 'wait_for_replaced'],
    ]);
    expect(listWaitingIntents(state, { work_item_id: 'w-1', limit: 1 })).toMatchObject({
      total: 2,
      items: [{ id: 'i-2' }],
    });
  });

  it('refuses an unknown status and never shows a token hash', () => {
    expect(() => listWaitingIntents(state, { status: 'open' as never })).toThrow(
      expect.objectContaining({ code: 'validation_failed' }),
    );
    const external = replay(
      history(open, wcmd.waitFor('i-x', null, { wake: 'external', resource: 'r', callback_token_hash: 'sha256:h' })),
    );
    expect(JSON.stringify(listWaitingIntents(external))).not.toContain('sha256:h');
  });
});

describe('task list', () => {
  const state = replay(
    history(
      open,
      wcmd.createTask('t-1', { work_item_id: 'w-1' }),
      wcmd.createTask('t-2'),
      wcmd.taskStatus('t-1', 'failed'),
    ),
  );

  it('filters active and terminal tasks', () => {
    expect(listTasks(state, { filter: 'terminal' }).items.map((t) => [t.id, t.terminal])).toEqual([['t-1', true]]);
    expect(listTasks(state, { filter: 'active' }).items.map((t) => t.id)).toEqual(['t-2']);
    expect(listTasks(state, { work_item_id: 'w-1' }).total).toBe(1);
  });
});

describe('timer views', () => {
  const state = replay(
    history(
      open,
      wcmd.createTimer('late', { fire_at: at(120) }),
      wcmd.createTimer('soon', { fire_at: at(70) }),
      wcmd.createTimer('gone', { fire_at: at(65) }),
      wcmd.cancelTimer('gone'),
    ),
  );

  it('orders by fire_at and finds the due ones (overdue included)', () => {
    expect(scheduledTimers(state).map((t) => t.id)).toEqual(['soon', 'late']);
    expect(dueTimers(state, at(100)).map((t) => t.id)).toEqual(['soon']);
    expect(dueTimers(state, at(69))).toEqual([]);
    expect(listTimers(state, { now: at(100) }).items.map((t) => [t.id, t.due])).toEqual([
      ['gone', false],
      ['soon', true],
      ['late', false],
    ]);
    expect(listTimers(state, { status: 'cancelled' }).total).toBe(1);
  });
});

describe('the folded state', () => {
  const events = history(
    open,
    wcmd.createTask('t-1'),
    wcmd.waitFor('i-1', 'w-1', { wake: 'task_result', resource: 't-1' }),
    wcmd.createTimer('tm-1', { fire_at: at(61), interval_ms: 60_000 }),
    wcmd.enqueue('m-1', { body: { x: [1, { y: null }] } }),
    wcmd.wakeHint(),
    wcmd.fireTimer('tm-1', at(61)),
    wcmd.taskStatus('t-1', 'completed'),
    wcmd.control('pause'),
  );

  it('is JSON-serialisable (a snapshot round-trips to an equal state)', () => {
    const state = replay(events);
    const revived = reviveAgentState(JSON.parse(JSON.stringify(state)));
    expect(revived).toEqual(state);
    expect(JSON.stringify(revived)).toBe(JSON.stringify(state));
  });

  it('keeps the identity of every record an event does not touch', () => {
    const index = events.findIndex((e) => e.type === 'WaitingIntentResolved');
    const before = replay(events.slice(0, index));
    const after = evolve(before, events[index]);
    expect(after.waiting_intents.get('i-1')).not.toBe(before.waiting_intents.get('i-1'));
    expect(after.tasks).toBe(before.tasks);
    expect(after.timers).toBe(before.timers);
    expect(after.messages).toBe(before.messages);
    expect(after.work_items).toBe(before.work_items);
    const next = evolve(after, events[index + 1]);
    expect(next.work_items.get('w-1')).not.toBe(after.work_items.get('w-1'));
    expect(next.waiting_intents).toBe(after.waiting_intents);
  });

  it('never mutates the state it folds', () => {
    const before = replay(events.slice(0, 5));
    const snapshot = JSON.stringify(before);
    events.slice(5).reduce(evolve, before);
    expect(JSON.stringify(before)).toBe(snapshot);
  });
});
