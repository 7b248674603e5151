import { given } from '../testing/decider-spec';
import { at, created, registered } from '../testing/fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';
import { nextDueAt } from '../scheduler/next-due';
import { dueTimers } from '../views/timer.view';
import { replay } from '../agent/agent.evolve';

// Issue 15 items 2 and 3: what a timer's firing does to its wait, and interval timers while the
// agent is stopped or paused (no pile-up: one fire on start or resume, with the periods it missed).

const open = [registered(), created('w-1')];
const TEN_MIN = 600_000;
const interval = history(
  open,
  wcmd.control('start'),
  wcmd.createTimer('t-i', { fire_at: at(90), interval_ms: TEN_MIN }),
);

describe('a timer wait and its timer (item 2)', () => {
  const waiting = history(open, wcmd.waitFor('i-1', 'w-1', { wake: 'timer', fire_at: at(90), timer_id: 't-w' }));

  it('given a one-shot timer wait, when the timer fires, then the wait is resolved and no wait is left', () => {
    given(waiting)
      .when(wcmd.fireTimer('t-w', at(91)))
      .thenState((after) => {
        expect(after.waiting_intents.get('i-1')).toMatchObject({ status: 'resolved', ended_at: at(91) });
        expect(after.timers.get('t-w')).toMatchObject({ status: 'fired' });
        expect(nextDueAt(after)).toBeNull();
      });
  });

  it('keeps a blocker the agent rewrote since (only the blocker the wait set is cleared)', () => {
    const rewritten = history(waiting, {
      type: 'UpdateWorkItem',
      data: { work_item_id: 'w-1', blocked_by: 'the deploy window' },
      meta: { now: at(70), command_id: 'c' },
    } as never);
    given(rewritten)
      .when(wcmd.fireTimer('t-w', at(90)))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TimerFired', 'WaitingIntentResolved', 'MessageQueued']);
        expect(after.work_items.get('w-1')!.blocked_by).toBe('the deploy window');
      });
  });
});

describe('interval timers while stopped or paused (item 3)', () => {
  it('given a running agent, an on-time fire records missed_periods 0', () => {
    given(interval)
      .when(wcmd.fireTimer('t-i', at(90)))
      .thenState((after, events) => {
        expect(events[0].data).toMatchObject({ missed_periods: 0, next_fire_at: '2026-01-01T01:40:00.000Z' });
        expect(after.timers.get('t-i')).toMatchObject({ missed_periods: 0, fire_count: 1 });
      });
  });

  it('given a stopped agent, a due interval timer records nothing and is not due for the worker', () => {
    const stopped = history(interval, wcmd.control('stop'));
    given(stopped)
      .when(wcmd.fireTimer('t-i', at(125)))
      .thenNothing();
    const state = replay(stopped);
    expect(dueTimers(state, at(125))).toEqual([]);
    expect(nextDueAt(state)).toBeNull();
  });

  it('on start, fires once with the periods missed while stopped (kept on the timer)', () => {
    const restarted = history(interval, wcmd.control('stop'), wcmd.control('start'));
    expect(dueTimers(replay(restarted), at(125)).map((t) => t.id)).toEqual(['t-i']);
    given(restarted)
      .when(wcmd.fireTimer('t-i', at(125)))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TimerFired', 'MessageQueued']);
        expect(events[0].data).toMatchObject({
          fire_at: at(90),
          missed_periods: 3,
          next_fire_at: '2026-01-01T02:10:00.000Z',
        });
        expect(after.timers.get('t-i')).toMatchObject({
          missed_periods: 3,
          fire_count: 1,
          fire_at: '2026-01-01T02:10:00.000Z',
        });
      });
  });

  it('given a paused agent, the first due fire is recorded; while its tick is pending, the next period is not', () => {
    const paused = history(interval, wcmd.control('pause'), wcmd.fireTimer('t-i', at(90), 'm-first'));
    const state = replay(paused);
    expect(state.messages.get('m-first')).toMatchObject({ kind: 'timer_tick', status: 'queued' });
    expect(dueTimers(state, at(105))).toEqual([]);
    expect(nextDueAt(state)).toBeNull();
    given(paused)
      .when(wcmd.fireTimer('t-i', at(105), 'm-second'))
      .thenNothing();
  });

  it('on resume, fires once with the periods missed while paused', () => {
    const resumed = history(
      interval,
      wcmd.control('pause'),
      wcmd.fireTimer('t-i', at(90), 'm-first'),
      wcmd.control('resume'),
    );
    given(resumed)
      .when(wcmd.fireTimer('t-i', at(125), 'm-resume'))
      .thenState((after, events) => {
        expect(events[0].data).toMatchObject({ fire_at: '2026-01-01T01:40:00.000Z', missed_periods: 2 });
        expect(after.timers.get('t-i')).toMatchObject({ missed_periods: 2, fire_count: 2 });
        expect(after.queue).toEqual(['m-first', 'm-resume']);
      });
  });

  it('never holds a one-shot timer', () => {
    const oneShot = history(
      open,
      wcmd.control('start'),
      wcmd.createTimer('t-1', { fire_at: at(90) }),
      wcmd.control('stop'),
    );
    expect(dueTimers(replay(oneShot), at(95)).map((t) => t.id)).toEqual(['t-1']);
  });
});
