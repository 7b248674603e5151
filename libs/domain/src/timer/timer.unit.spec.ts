import { given } from '../testing/decider-spec';
import { AGENT, at, completed, created, NOW, registered } from '../testing/fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';
import { nextFireAt } from './timer.time';

const agent = [registered()];
const open = [...agent, created('w-1')];
const oneShot = history(
  open,
  wcmd.createTimer('t-1', { fire_at: at(90), work_item_id: 'w-1', resume_text: 'check the deploy' }),
);
const interval = history(open, wcmd.createTimer('t-2', { fire_at: at(90), interval_ms: 600_000 }));

describe('CreateTimer', () => {
  it('schedules a timer at fire_at', () => {
    given(open)
      .when(wcmd.createTimer('t-1', { fire_at: at(90), work_item_id: 'w-1', resume_text: ' go ' }))
      .then([
        {
          type: 'TimerCreated',
          data: {
            agent_id: AGENT,
            timer_id: 't-1',
            fire_at: at(90),
            interval_ms: null,
            work_item_id: 'w-1',
            resume_text: 'go',
            intent_id: null,
            at: NOW,
          },
        },
      ]);
  });

  it('turns duration_ms into fire_at from the command time', () => {
    given(open)
      .when(wcmd.createTimer('t-1', { duration_ms: 90_000 }))
      .thenState((after) =>
        expect(after.timers.get('t-1')).toMatchObject({
          fire_at: '2026-01-01T01:01:30.000Z',
          status: 'scheduled',
          fire_count: 0,
        }),
      );
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['neither fire_at nor duration_ms', {}, { field: 'fire_at', rule: 'exactly_one_of_fire_at_or_duration_ms' }],
    ['both fire_at and duration_ms', { fire_at: at(90), duration_ms: 5 }, { field: 'fire_at' }],
    ['a bad fire_at', { fire_at: '90 minutes' }, { field: 'fire_at', rule: 'invalid_timestamp' }],
    ['a negative duration', { duration_ms: -1 }, { field: 'duration_ms', rule: 'out_of_range' }],
    [
      'an interval under a second',
      { fire_at: at(90), interval_ms: 999 },
      { field: 'interval_ms', rule: 'out_of_range' },
    ],
    [
      'a fractional interval',
      { fire_at: at(90), interval_ms: 1500.5 },
      { field: 'interval_ms', rule: 'must_be_integer' },
    ],
  ])('refuses %s', (_name, data, details) => {
    given(open)
      .when(wcmd.createTimer('t-1', data as never))
      .thenThrows('validation_failed', details);
  });

  it('refuses a reused id and an unknown or completed item', () => {
    given(oneShot)
      .when(wcmd.createTimer('t-1', { fire_at: at(90) }))
      .thenThrows('already_exists', { resource: 'timer' });
    given(agent)
      .when(wcmd.createTimer('t-1', { fire_at: at(90), work_item_id: 'w-9' }))
      .thenThrows('not_found');
    given([...open, completed('w-1', 2)])
      .when(wcmd.createTimer('t-1', { fire_at: at(90), work_item_id: 'w-1' }))
      .thenThrows('invariant_violated');
  });
});

describe('FireTimer', () => {
  it('fires a due timer once and queues a timer_tick with its resume text', () => {
    given(oneShot)
      .when(wcmd.fireTimer('t-1', at(90), 'm-1'))
      .then([
        {
          type: 'TimerFired',
          data: {
            agent_id: AGENT,
            timer_id: 't-1',
            work_item_id: 'w-1',
            intent_id: null,
            fire_at: at(90),
            fired_at: at(90),
            fire_count: 1,
            next_fire_at: null,
            message_id: 'm-1',
            at: at(90),
          },
        },
        {
          type: 'MessageQueued',
          data: {
            agent_id: AGENT,
            message_id: 'm-1',
            kind: 'timer_tick',
            priority: 'next',
            authority: 'runtime_instruction',
            origin: 'timer',
            body: 'check the deploy',
            work_item_id: 'w-1',
            task_id: null,
            correlation_id: null,
            causation_id: 't-1',
            liveness_only: false,
            at: at(90),
          },
        },
      ]);
  });

  it('says "timer <id> fired" without resume text, and records nothing on a second fire', () => {
    const fired = history(open, wcmd.createTimer('t-3', { fire_at: at(90) }), wcmd.fireTimer('t-3', at(95)));
    expect(fired.at(-1)?.data).toMatchObject({ body: 'timer t-3 fired' });
    given(fired)
      .when(wcmd.fireTimer('t-3', at(100)))
      .thenNothing();
  });

  it('marks a one-shot timer fired', () => {
    given(oneShot)
      .when(wcmd.fireTimer('t-1', at(91)))
      .thenState((after) => {
        expect(after.timers.get('t-1')).toMatchObject({
          status: 'fired',
          fire_count: 1,
          last_fired_at: at(91),
          fire_at: at(90),
        });
      });
  });

  it('re-arms an interval timer at its next period', () => {
    given(interval)
      .when(wcmd.fireTimer('t-2', at(91)))
      .thenState((after, events) => {
        expect(events[0].data).toMatchObject({ next_fire_at: '2026-01-01T01:40:00.000Z', fire_count: 1 });
        expect(after.timers.get('t-2')).toMatchObject({ status: 'scheduled', fire_at: '2026-01-01T01:40:00.000Z' });
      });
  });

  it('skips missed periods of an overdue interval timer (no burst on recovery)', () => {
    expect(nextFireAt(at(90), 600_000, at(125))).toBe('2026-01-01T02:10:00.000Z');
    expect(nextFireAt(at(90), 600_000, at(90))).toBe('2026-01-01T01:40:00.000Z');
  });

  it('refuses a timer that is not due yet, an unknown timer and a missing message id', () => {
    given(oneShot)
      .when(wcmd.fireTimer('t-1', at(89)))
      .thenThrows('invariant_violated', { rule: 'timer_not_due' });
    given(open)
      .when(wcmd.fireTimer('t-9', at(90)))
      .thenThrows('not_found', { resource: 'timer' });
    given(oneShot)
      .when({ ...wcmd.fireTimer('t-1', at(90)), data: { timer_id: 't-1' } } as never)
      .thenThrows('validation_failed', { field: 'message_id' });
  });

  it('records nothing for a cancelled timer', () => {
    given(history(oneShot, wcmd.cancelTimer('t-1')))
      .when(wcmd.fireTimer('t-1', at(90)))
      .thenNothing();
  });
});

describe('a timer wait', () => {
  const waiting = history(open, wcmd.waitFor('i-1', 'w-1', { wake: 'timer', fire_at: at(90), timer_id: 't-w' }));

  it('is resolved by its one-shot timer (issue 15 item 2): the wait ends and the blocker it set is cleared', () => {
    given(waiting)
      .when(wcmd.fireTimer('t-w', at(90)))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TimerFired', 'WaitingIntentResolved', 'WorkItemUpdated', 'MessageQueued']);
        expect(events[1].data).toMatchObject({ intent_id: 'i-1', timer_id: 't-w', task_id: null, task_status: null });
        expect(after.waiting_intents.get('i-1')).toMatchObject({
          status: 'resolved',
          end_reason: 'timer_fired',
          trigger_count: 0,
        });
        expect(after.work_items.get('w-1')!.blocked_by).toBeNull();
        expect(after.messages.get(`m-t-w-${at(90)}`)).toMatchObject({
          body: 'waiting (i-1)',
          work_item_id: 'w-1',
          correlation_id: 'i-1',
        });
      });
  });
  it('cancelling its timer also cancels the intent', () => {
    given(waiting)
      .when(wcmd.cancelTimer('t-w'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['TimerCancelled', 'WaitingIntentCancelled']);
        expect(after.waiting_intents.get('i-1')).toMatchObject({
          status: 'cancelled',
          end_reason: 'cancelled_by_caller',
        });
      });
  });
});

describe('CancelTimer', () => {
  it('cancels a scheduled timer and is idempotent', () => {
    given(oneShot)
      .when(wcmd.cancelTimer('t-1'))
      .then([
        {
          type: 'TimerCancelled',
          data: {
            agent_id: AGENT,
            timer_id: 't-1',
            work_item_id: 'w-1',
            intent_id: null,
            reason: 'cancelled_by_caller',
            at: NOW,
          },
        },
      ]);
    given(history(oneShot, wcmd.cancelTimer('t-1')))
      .when(wcmd.cancelTimer('t-1'))
      .thenNothing();
    given(history(oneShot, wcmd.fireTimer('t-1', at(90))))
      .when(wcmd.cancelTimer('t-1'))
      .thenNothing();
  });

  it('refuses an unknown timer', () => {
    given(open).when(wcmd.cancelTimer('t-9')).thenThrows('not_found');
  });
});
