import type { AgentEvent } from '../agent/agent.events';
import { given } from '../testing/decider-spec';
import { AGENT, at, cmd, completed, created, NOW, picked, registered, updated } from '../testing/fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';

const agent = [registered()];
const open = [...agent, created('w-1')];
const focused = [...open, picked('w-1')];

const intentCreated = (id: string, workItemId: string | null, extra: Record<string, unknown> = {}): AgentEvent =>
  ({
    type: 'WaitingIntentCreated',
    data: {
      agent_id: AGENT,
      intent_id: id,
      scope: workItemId === null ? 'agent' : 'work_item',
      work_item_id: workItemId,
      wake: 'operator_input',
      reason: `waiting (${id})`,
      source: null,
      resource: null,
      condition: null,
      fire_at: null,
      delivery_mode: 'wake_hint',
      callback_token_hash: null,
      timer_id: null,
      at: NOW,
      ...extra,
    },
  }) as AgentEvent;
const blocked = (reason: string, revision = 2): AgentEvent => ({
  type: 'WorkItemUpdated',
  data: { agent_id: AGENT, work_item_id: 'w-1', blocked_by: reason, revision, at: NOW },
});
const cancelled = (id: string, reason: string, workItemId: string | null = 'w-1'): AgentEvent =>
  ({
    type: 'WaitingIntentCancelled',
    data: { agent_id: AGENT, intent_id: id, work_item_id: workItemId, reason, note: null, at: NOW },
  }) as AgentEvent;

describe('WaitFor at work-item scope', () => {
  it('sets blocked_by to the reason (revision + 1) and records the intent', () => {
    given(open)
      .when(wcmd.waitFor('i-1', 'w-1'))
      .then([blocked('waiting (i-1)'), intentCreated('i-1', 'w-1')]);
  });

  it('releases the focus when the item is focused', () => {
    given(focused)
      .when(wcmd.waitFor('i-1', 'w-1'))
      .then([
        blocked('waiting (i-1)'),
        {
          type: 'WorkItemFocusReleased',
          data: { agent_id: AGENT, work_item_id: 'w-1', reason: 'work_item_blocked', at: NOW },
        },
        intentCreated('i-1', 'w-1'),
      ]);
  });

  it('leaves the item blocked, waiting, not focused, with an active untriggered intent', () => {
    given(focused)
      .when(wcmd.waitFor('i-1', 'w-1', { wake: 'external', resource: 'pr/12', callback_token_hash: 'sha256:x' }))
      .thenState((after) => {
        expect(after.current_work_item_id).toBeNull();
        expect(after.work_items.get('w-1')).toMatchObject({ blocked_by: 'waiting (i-1)', revision: 2 });
        expect(after.waiting_intents.get('i-1')).toMatchObject({
          status: 'active',
          trigger_count: 0,
          last_triggered_at: null,
          callback_token_hash: 'sha256:x',
          delivery_mode: 'wake_hint',
        });
      });
  });

  it("replaces the item's previous active intents (wait_for_replaced) and keeps agent-scoped ones", () => {
    const before = history(open, wcmd.waitFor('i-1', 'w-1'), wcmd.waitFor('i-a', null));
    given(before)
      .when(wcmd.waitFor('i-2', 'w-1', { reason: 'new reason' }))
      .then([
        cancelled('i-1', 'wait_for_replaced'),
        blocked('new reason', 3),
        intentCreated('i-2', 'w-1', { reason: 'new reason' }),
      ]);
    given(before)
      .when(wcmd.waitFor('i-2', 'w-1'))
      .thenState((after) => {
        expect(after.waiting_intents.get('i-1')).toMatchObject({
          status: 'cancelled',
          end_reason: 'wait_for_replaced',
          ended_at: NOW,
        });
        expect(after.waiting_intents.get('i-a')!.status).toBe('active');
      });
  });

  it('does not update the item when blocked_by already says the reason', () => {
    given([...open, updated('w-1', { blocked_by: 'same', revision: 2 })])
      .when(wcmd.waitFor('i-1', 'w-1', { reason: ' same ' }))
      .then([intentCreated('i-1', 'w-1', { reason: 'same' })]);
  });

  it('creates the timer of a timer wait, resuming with the waiting text', () => {
    given(open)
      .when(wcmd.waitFor('i-1', 'w-1', { wake: 'timer', fire_at: at(90), timer_id: 't-1' }))
      .then([
        blocked('waiting (i-1)'),
        intentCreated('i-1', 'w-1', { wake: 'timer', fire_at: at(90), timer_id: 't-1' }),
        {
          type: 'TimerCreated',
          data: {
            agent_id: AGENT,
            timer_id: 't-1',
            fire_at: at(90),
            interval_ms: null,
            work_item_id: 'w-1',
            resume_text: 'waiting (i-1)',
            intent_id: 'i-1',
            at: NOW,
          },
        },
      ]);
  });

  it("cancels a replaced timer wait's timer, so it never fires", () => {
    const before = history(open, wcmd.waitFor('i-1', 'w-1', { wake: 'timer', fire_at: at(90), timer_id: 't-1' }));
    given(before)
      .when(wcmd.waitFor('i-2', 'w-1'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual([
          'WaitingIntentCancelled',
          'TimerCancelled',
          'WorkItemUpdated',
          'WaitingIntentCreated',
        ]);
        expect(events[1].data).toMatchObject({ timer_id: 't-1', reason: 'waiting_intent_ended' });
        expect(after.timers.get('t-1')!.status).toBe('cancelled');
      });
  });

  it('refuses a completed item (422) and an unknown one (404)', () => {
    given([...open, completed('w-1', 2)])
      .when(wcmd.waitFor('i-1', 'w-1'))
      .thenThrows('invariant_violated', { rule: 'work_item_completed', work_item_id: 'w-1' });
    given(agent).when(wcmd.waitFor('i-1', 'w-9')).thenThrows('not_found', { resource: 'work_item' });
  });
});

describe('WaitFor at agent scope', () => {
  it('records the intent only: no blocker, focus untouched', () => {
    given(focused)
      .when(wcmd.waitFor('i-a', null))
      .then([intentCreated('i-a', null)]);
    given(focused)
      .when(wcmd.waitFor('i-a', null))
      .thenState((after) => {
        expect(after.current_work_item_id).toBe('w-1');
        expect(after.work_items.get('w-1')!.blocked_by).toBeNull();
      });
  });

  it('refuses a work_item_id', () => {
    const command = wcmd.waitFor('i-a', null, { work_item_id: 'w-1' });
    given(focused)
      .when(command)
      .thenThrows('validation_failed', { field: 'work_item_id', rule: 'not_allowed_at_agent_scope' });
  });
});

describe('WaitFor on a task', () => {
  const withTask = history(open, wcmd.createTask('t-1'));

  it('needs an existing task that has not ended', () => {
    given(withTask)
      .when(wcmd.waitFor('i-1', 'w-1', { wake: 'task_result', resource: 't-1' }))
      .thenState((after) =>
        expect(after.waiting_intents.get('i-1')).toMatchObject({ wake: 'task_result', resource: 't-1' }),
      );
    given(open)
      .when(wcmd.waitFor('i-1', 'w-1', { wake: 'task_result', resource: 't-9' }))
      .thenThrows('not_found', { resource: 'task' });
    given(history(withTask, wcmd.taskStatus('t-1', 'failed')))
      .when(wcmd.waitFor('i-1', 'w-1', { wake: 'task_result', resource: 't-1' }))
      .thenThrows('invariant_violated', { rule: 'task_already_terminal', status: 'failed' });
  });
});

describe('WaitFor validation', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['a blank reason', { reason: '  ' }, { field: 'reason', rule: 'empty' }],
    ['a reason over 2000 characters', { reason: 'r'.repeat(2001) }, { field: 'reason', rule: 'too_long' }],
    ['an unknown wake', { wake: 'someday' }, { field: 'wake', rule: 'invalid_enum' }],
    ['an unknown scope', { scope: 'global' }, { field: 'scope', rule: 'invalid_enum' }],
    ['an unknown delivery mode', { delivery_mode: 'email' }, { field: 'delivery_mode', rule: 'invalid_enum' }],
    ['a task wait without resource', { wake: 'task_result' }, { field: 'resource', rule: 'required_for_task_result' }],
    [
      'an external wait without resource',
      { wake: 'external', callback_token_hash: 'h' },
      { field: 'resource', rule: 'required_for_external' },
    ],
    [
      'an external wait without token hash',
      { wake: 'external', resource: 'pr' },
      { field: 'callback_token_hash', rule: 'required_for_external' },
    ],
    ['a timer wait without fire_at', { wake: 'timer', timer_id: 't' }, { field: 'fire_at', rule: 'required' }],
    [
      'a timer wait with a bad fire_at',
      { wake: 'timer', timer_id: 't', fire_at: 'tomorrow' },
      { field: 'fire_at', rule: 'invalid_timestamp' },
    ],
    ['a timer wait without timer_id', { wake: 'timer', fire_at: at(90) }, { field: 'timer_id', rule: 'required' }],
    ['fire_at on a non-timer wait', { fire_at: at(90) }, { field: 'fire_at', rule: 'only_for_timer' }],
    ['a malformed intent id', { intent_id: 'bad id' }, { field: 'intent_id', rule: 'invalid_id' }],
  ])('refuses %s', (_name, data, details) => {
    given(open)
      .when(wcmd.waitFor('i-1', 'w-1', data as never))
      .thenThrows('validation_failed', details);
  });

  it('accepts a 2000-character reason and refuses a reused intent id', () => {
    given(open)
      .when(wcmd.waitFor('i-1', 'w-1', { reason: 'r'.repeat(2000) }))
      .thenState((after) => expect(after.waiting_intents.get('i-1')).toBeDefined());
    given(history(open, wcmd.waitFor('i-1', 'w-1')))
      .when(wcmd.waitFor('i-1', 'w-1'))
      .thenThrows('already_exists', { resource: 'waiting_intent' });
  });
});

describe('the work item ends its waits', () => {
  const waiting = history(open, wcmd.waitFor('i-1', 'w-1'), wcmd.waitFor('i-a', null));

  it("clearing the blocker cancels the item's intents (blocker_cleared), not the agent-scoped ones", () => {
    given(waiting)
      .when(cmd.update('w-1', { blocked_by: null }))
      .thenState((after, events) => {
        expect(events).toContainEqual(cancelled('i-1', 'blocker_cleared'));
        expect(typesOf(events)).toEqual(['WorkItemUpdated', 'WaitingIntentCancelled']);
        expect(after.waiting_intents.get('i-1')!.status).toBe('cancelled');
        expect(after.waiting_intents.get('i-a')!.status).toBe('active');
        expect(after.current_work_item_id).toBeNull();
      });
  });

  it('completing the item cancels its intents (work_item_completed), not the agent-scoped ones', () => {
    const focusedWaiting = [...waiting, picked('w-1', null, at(61))];
    given(focusedWaiting)
      .when(cmd.complete('w-1'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['WorkItemCompleted', 'WaitingIntentCancelled', 'WorkItemFocusReleased']);
        expect(events[1]).toEqual(cancelled('i-1', 'work_item_completed'));
        expect(after.waiting_intents.get('i-a')!.status).toBe('active');
      });
  });
});
