import type { AgentEvent } from '../agent/agent.events';
import { evolve, replay } from '../agent/agent.evolve';
import { given, givenState } from '../testing/decider-spec';
import { AGENT, created, NOW, registered } from '../testing/fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { queuedMessagesInOrder } from '../views/message.view';
import type { MessageKind } from './message.state';

const agent = [registered()];

describe('EnqueueMessage', () => {
  it('queues a caller message in the normal band by default', () => {
    given(agent)
      .when(wcmd.enqueue('m-1', { body: ' hello ' }))
      .then([
        {
          type: 'MessageQueued',
          data: {
            agent_id: AGENT,
            message_id: 'm-1',
            kind: 'operator_prompt',
            priority: 'normal',
            authority: 'operator_instruction',
            origin: 'api',
            body: 'hello',
            work_item_id: null,
            task_id: null,
            correlation_id: null,
            causation_id: null,
            liveness_only: false,
            at: NOW,
          },
        },
      ]);
  });

  it('keeps a JSON body as a copy and the links it is given', () => {
    const body = { event: 'push', commits: [{ id: 'abc' }] };
    const before = history([...agent, created('w-1')], wcmd.createTask('t-1'));
    given(before)
      .when(
        wcmd.enqueue('m-1', {
          kind: 'webhook_event',
          body,
          priority: 'background',
          origin: 'github',
          work_item_id: 'w-1',
          task_id: 't-1',
          correlation_id: 'delivery-9',
          authority: 'external_evidence',
        }),
      )
      .thenState((after) => {
        expect(after.messages.get('m-1')).toMatchObject({
          kind: 'webhook_event',
          body,
          priority: 'background',
          origin: 'github',
          work_item_id: 'w-1',
          task_id: 't-1',
          correlation_id: 'delivery-9',
          authority: 'external_evidence',
          status: 'queued',
          created_at: NOW,
        });
        expect(after.messages.get('m-1')!.body).not.toBe(body);
        expect(after.queue).toEqual(['m-1']);
      });
  });

  it.each<MessageKind>(['system_tick', 'timer_tick', 'task_result', 'callback_event'])(
    'refuses the runtime-owned kind %s',
    (kind) => {
      given(agent)
        .when(wcmd.enqueue('m-1', { kind }))
        .thenThrows('validation_failed', { field: 'kind', rule: 'runtime_owned_kind', kind });
    },
  );

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown kind', { kind: 'email' }, 'kind'],
    ['an unknown priority', { priority: 'urgent' }, 'priority'],
    ['an unknown authority', { authority: 'root' }, 'authority'],
    ['a missing authority', { authority: undefined }, 'authority'],
    ['a blank body', { body: '  ' }, 'body'],
    ['an array body', { body: ['a'] }, 'body'],
    ['a numeric body', { body: 7 }, 'body'],
    ['a malformed message id', { message_id: 'm 1' }, 'message_id'],
  ])('refuses %s', (_name, data, field) => {
    given(agent)
      .when(wcmd.enqueue('m-1', data as never))
      .thenThrows('validation_failed', { field });
  });

  it('refuses a reused message id and unknown links', () => {
    given(history(agent, wcmd.enqueue('m-1')))
      .when(wcmd.enqueue('m-1'))
      .thenThrows('already_exists', { resource: 'message' });
    given(agent)
      .when(wcmd.enqueue('m-1', { work_item_id: 'w-9' }))
      .thenThrows('not_found', { resource: 'work_item' });
    given(agent)
      .when(wcmd.enqueue('m-1', { task_id: 't-9' }))
      .thenThrows('not_found', { resource: 'task' });
  });

  it('wakes an asleep agent', () => {
    givenState({ ...replay(agent), posture: 'asleep' })
      .when(wcmd.enqueue('m-1'))
      .thenState((after) => expect(after.posture).toBe('awake_idle'));
  });
});

describe('queued messages in order', () => {
  it('takes bands interject > next > normal > background, FIFO within a band', () => {
    const state = replay(
      history(
        agent,
        wcmd.enqueue('bg-1', { priority: 'background' }),
        wcmd.enqueue('n-1'),
        wcmd.enqueue('i-1', { priority: 'interject' }),
        wcmd.enqueue('n-2'),
        wcmd.enqueue('x-1', { priority: 'next' }),
        wcmd.enqueue('i-2', { priority: 'interject' }),
        wcmd.enqueue('n-3', { priority: 'normal' }),
      ),
    );
    expect(queuedMessagesInOrder(state).map((m) => m.id)).toEqual(['i-1', 'i-2', 'x-1', 'n-1', 'n-2', 'n-3', 'bg-1']);
  });

  it('orders by arrival (stream position), not by timestamps', () => {
    const events = history(agent, wcmd.enqueue('m-a'), wcmd.enqueue('m-b'));
    const backdated = events.map((e): AgentEvent =>
      e.type === 'MessageQueued' && e.data.message_id === 'm-b'
        ? { ...e, data: { ...e.data, at: '2020-01-01T00:00:00Z' } }
        : e,
    );
    expect(queuedMessagesInOrder(replay(backdated)).map((m) => [m.id, m.seq])).toEqual([
      ['m-a', 1],
      ['m-b', 2],
    ]);
  });

  it('leaves out messages that are no longer queued', () => {
    const state = replay(history(agent, wcmd.enqueue('m-1'), wcmd.enqueue('m-2'), wcmd.drop('m-1')));
    expect(queuedMessagesInOrder(state).map((m) => m.id)).toEqual(['m-2']);
  });
});

describe('DropMessage', () => {
  const queued = history(agent, wcmd.enqueue('m-1'));

  it('drops a queued message (operator)', () => {
    given(queued)
      .when(wcmd.drop('m-1'))
      .then([
        {
          type: 'MessageDropped',
          data: { agent_id: AGENT, message_id: 'm-1', reason: 'dropped_by_operator', at: NOW },
        },
      ]);
    given(queued)
      .when(wcmd.drop('m-1'))
      .thenState((after) => {
        expect(after.messages.get('m-1')!.status).toBe('dropped');
        expect(after.queue).toEqual([]);
      });
  });

  it('is idempotent for a dropped message', () => {
    given(history(queued, wcmd.drop('m-1')))
      .when(wcmd.drop('m-1'))
      .thenNothing();
  });

  it('refuses a message that is not queued, and an unknown one', () => {
    const dequeued = [
      ...queued,
      {
        type: 'MessageDequeued',
        data: { agent_id: AGENT, message_id: 'm-1', turn_id: 'turn-1', at: NOW },
      } as AgentEvent,
    ];
    given(dequeued)
      .when(wcmd.drop('m-1'))
      .thenThrows('invariant_violated', { rule: 'message_not_queued', status: 'dequeued' });
    given(agent).when(wcmd.drop('m-9')).thenThrows('not_found', { resource: 'message' });
  });
});

describe('message status events of the scheduler and turn slices', () => {
  const queued = replay(history(agent, wcmd.enqueue('m-1'), wcmd.enqueue('m-2')));

  it.each([
    ['MessageDequeued', 'dequeued'],
    ['MessageProcessed', 'processed'],
    ['MessageInterjected', 'interjected'],
    ['MessageAborted', 'aborted'],
  ])('%s moves the message to %s and out of the queue, keeping the other records', (type, status) => {
    const after = evolve(queued, { type, data: { agent_id: AGENT, message_id: 'm-1', turn_id: null, at: NOW } });
    expect(after.messages.get('m-1')!.status).toBe(status);
    expect(after.queue).toEqual(['m-2']);
    expect(after.messages.get('m-2')).toBe(queued.messages.get('m-2'));
  });
});
