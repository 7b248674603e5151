import type { AgentEvent } from '../agent/agent.events';
import { given } from '../testing/decider-spec';
import { AGENT, at, created, NOW, picked, registered } from '../testing/fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';

const open = [registered(), created('w-1')];
const waiting = history(
  open,
  wcmd.waitFor('i-1', 'w-1', { wake: 'external', resource: 'pr/7', callback_token_hash: 'sha256:t' }),
);
const enqueueing = history(
  open,
  wcmd.waitFor('i-1', 'w-1', {
    wake: 'external',
    resource: 'ci/7',
    callback_token_hash: 'sha256:t',
    delivery_mode: 'enqueue_message',
  }),
);

const triggered = (count: number, extra: Record<string, unknown> = {}): AgentEvent =>
  ({
    type: 'WaitingIntentTriggered',
    data: {
      agent_id: AGENT,
      intent_id: 'i-1',
      work_item_id: 'w-1',
      trigger_count: count,
      triggered_at: NOW,
      source: 'github',
      event_id: null,
      provenance: { via: 'api', actor: null },
      has_payload: false,
      at: NOW,
      ...extra,
    },
  }) as AgentEvent;

describe('TriggerWaitingIntent with wake_hint delivery', () => {
  it('counts the trigger and, on an idle agent, emits a liveness-only system_tick at once', () => {
    given(waiting)
      .when(wcmd.trigger('i-1'))
      .then([
        triggered(1),
        {
          type: 'WakeHintSubmitted',
          data: {
            agent_id: AGENT,
            source: 'github',
            reason: 'waiting intent i-1 triggered',
            body: null,
            intent_id: 'i-1',
            disposition: 'triggered',
            message_id: 'm-i-1',
            at: NOW,
          },
        },
        {
          type: 'MessageQueued',
          data: {
            agent_id: AGENT,
            message_id: 'm-i-1',
            kind: 'system_tick',
            priority: 'next',
            authority: 'runtime_instruction',
            origin: 'wake_hint',
            body: 'Wake hint from github: waiting intent i-1 triggered',
            work_item_id: 'w-1',
            task_id: null,
            correlation_id: null,
            causation_id: 'i-1',
            liveness_only: true,
            at: NOW,
          },
        },
      ]);
  });

  it('makes the tick contentful when the trigger has a payload', () => {
    given(waiting)
      .when(wcmd.trigger('i-1', { payload: { pr: 7, state: 'merged' } }))
      .thenState((after, events) => {
        expect(events[0].data).toMatchObject({ has_payload: true });
        expect(after.messages.get('m-i-1')).toMatchObject({ body: { pr: 7, state: 'merged' }, liveness_only: false });
      });
  });

  it('keeps the hint pending (coalesced) while a message is queued', () => {
    given(history(waiting, wcmd.enqueue('m-0')))
      .when(wcmd.trigger('i-1'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['WaitingIntentTriggered', 'WakeHintSubmitted']);
        expect(events[1].data).toMatchObject({ disposition: 'coalesced', message_id: null });
        expect(after.pending_wake_hint).toMatchObject({ source: 'github', intent_id: 'i-1', created_at: NOW });
      });
  });

  it('still records the trigger on a stopped agent, whose hint is ignored', () => {
    given(history(waiting, wcmd.control('stop')))
      .when(wcmd.trigger('i-1'))
      .thenState((after, events) => {
        expect(events[1].data).toMatchObject({ disposition: 'ignored' });
        expect(after.waiting_intents.get('i-1')!.trigger_count).toBe(1);
        expect(after.queue).toEqual([]);
      });
  });
});

describe('a triggered intent', () => {
  const once = history(waiting, wcmd.trigger('i-1', { via: 'callback', event_id: 'delivery-1' }, at(61)));

  it('stays active, keeps the blocker, the item state and the provenance', () => {
    given(waiting)
      .when(wcmd.trigger('i-1', { via: 'callback', event_id: 'delivery-1' }))
      .thenState((after) => {
        expect(after.waiting_intents.get('i-1')).toMatchObject({
          status: 'active',
          trigger_count: 1,
          last_triggered_at: NOW,
          last_trigger: { source: 'github', event_id: 'delivery-1', via: 'callback' },
        });
        expect(after.work_items.get('w-1')).toMatchObject({ state: 'open', blocked_by: 'waiting (i-1)' });
      });
  });

  it('counts an event_id once for its whole life: a redelivery records nothing, however late', () => {
    given(once)
      .when(wcmd.trigger('i-1', { via: 'callback', event_id: 'delivery-1', message_id: 'm-9' }))
      .then([]);
    given(once)
      .when(wcmd.trigger('i-1', { via: 'api', event_id: 'delivery-1', message_id: 'm-9' }))
      .then([]);
  });

  it('counts a new event_id, and remembers both', () => {
    const twice = history(once, wcmd.trigger('i-1', { event_id: 'delivery-2', message_id: 'm-2' }, at(62)));
    given(twice)
      .when(wcmd.trigger('i-1', { event_id: 'delivery-1', message_id: 'm-3' }))
      .then([]);
    given(twice)
      .when(wcmd.trigger('i-1', { event_id: 'delivery-3', message_id: 'm-3' }))
      .thenState((after) => expect(after.waiting_intents.get('i-1')).toMatchObject({ trigger_count: 3 }));
  });

  it('can be triggered again', () => {
    given(once)
      .when(wcmd.trigger('i-1', { message_id: 'm-2' }))
      .thenState((after, events) => {
        expect(events[0]).toEqual(triggered(2));
        expect(after.waiting_intents.get('i-1')).toMatchObject({ status: 'active', trigger_count: 2 });
      });
  });

  it('never moves the focus, even from an item picked for inspection', () => {
    given([...waiting, picked('w-1', null, at(61))])
      .when(wcmd.trigger('i-1'))
      .thenState((after) => expect(after.current_work_item_id).toBe('w-1'));
  });
});

describe('TriggerWaitingIntent with enqueue_message delivery', () => {
  it('queues a contentful callback_event bound to the item', () => {
    given(enqueueing)
      .when(wcmd.trigger('i-1', { payload: 'CI passed', event_id: 'e-1' }))
      .then([
        triggered(1, { event_id: 'e-1', has_payload: true }),
        {
          type: 'MessageQueued',
          data: {
            agent_id: AGENT,
            message_id: 'm-i-1',
            kind: 'callback_event',
            priority: 'normal',
            authority: 'integration_signal',
            origin: 'github',
            body: 'CI passed',
            work_item_id: 'w-1',
            task_id: null,
            correlation_id: 'e-1',
            causation_id: 'i-1',
            liveness_only: false,
            at: NOW,
          },
        },
      ]);
  });

  it('names the intent in the body when there is no payload', () => {
    given(enqueueing)
      .when(wcmd.trigger('i-1'))
      .thenState((after) => {
        expect(after.messages.get('m-i-1')!.body).toBe(
          'External event from github for waiting intent i-1: waiting (i-1)',
        );
      });
  });

  it('needs a message id', () => {
    given(enqueueing)
      .when(wcmd.trigger('i-1', { message_id: undefined }))
      .thenThrows('validation_failed', { field: 'message_id', rule: 'required' });
  });
});

describe('triggering a wait that does not wait for an external event', () => {
  it.each([
    ['operator_input', wcmd.waitFor('i-1', 'w-1')],
    ['task_result', wcmd.waitFor('i-1', 'w-1', { wake: 'task_result', resource: 't-1' })],
    ['timer', wcmd.waitFor('i-1', null, { wake: 'timer', fire_at: at(90), timer_id: 't-1' })],
  ])('refuses a %s wait from outside (wake_mismatch) and records nothing', (wake, waitFor) => {
    given(history(open, wcmd.createTask('t-1'), waitFor))
      .when(wcmd.trigger('i-1', { via: 'callback' }))
      .thenThrows('wake_mismatch', { intent_id: 'i-1', wake });
  });
});

describe('triggering an intent that is no longer active', () => {
  it('records nothing for a cancelled intent', () => {
    given(history(waiting, wcmd.cancelIntent('i-1')))
      .when(wcmd.trigger('i-1'))
      .thenNothing();
  });

  it('records nothing for a resolved intent', () => {
    const resolved = history(
      open,
      wcmd.createTask('t-1'),
      wcmd.waitFor('i-1', 'w-1', { wake: 'task_result', resource: 't-1' }),
      wcmd.taskStatus('t-1', 'completed'),
    );
    given(resolved).when(wcmd.trigger('i-1')).thenNothing();
  });

  it('refuses an unknown intent (404)', () => {
    given(open)
      .when(wcmd.trigger('i-9'))
      .thenThrows('not_found', { resource: 'waiting_intent', waiting_intent_id: 'i-9' });
  });

  it.each([
    [{ source: ' ' }, 'source'],
    [{ via: 'timer' }, 'via'],
    [{ payload: [1, 2] }, 'payload'],
  ])('refuses %j', (data, field) => {
    given(waiting)
      .when(wcmd.trigger('i-1', data as never))
      .thenThrows('validation_failed', { field });
  });
});

describe('CancelWaitingIntent', () => {
  it('cancels an active intent (cancelled_by_caller) and leaves the blocker to the agent', () => {
    given(waiting)
      .when(wcmd.cancelIntent('i-1', 'not needed'))
      .thenState((after, events) => {
        expect(events).toEqual([
          {
            type: 'WaitingIntentCancelled',
            data: {
              agent_id: AGENT,
              intent_id: 'i-1',
              work_item_id: 'w-1',
              reason: 'cancelled_by_caller',
              note: 'not needed',
              at: NOW,
            },
          },
        ]);
        expect(after.work_items.get('w-1')!.blocked_by).toBe('waiting (i-1)');
      });
  });

  it('is idempotent', () => {
    given(history(waiting, wcmd.cancelIntent('i-1')))
      .when(wcmd.cancelIntent('i-1'))
      .thenNothing();
  });

  it("also cancels a timer wait's timer", () => {
    given(history(open, wcmd.waitFor('i-1', null, { wake: 'timer', fire_at: at(90), timer_id: 't-1' })))
      .when(wcmd.cancelIntent('i-1'))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['WaitingIntentCancelled', 'TimerCancelled']);
        expect(after.timers.get('t-1')!.status).toBe('cancelled');
      });
  });

  it('refuses an unknown intent', () => {
    given(open).when(wcmd.cancelIntent('i-9')).thenThrows('not_found');
  });
});
