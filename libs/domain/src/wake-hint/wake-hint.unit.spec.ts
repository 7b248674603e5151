import { replay } from '../agent/agent.evolve';
import { given, givenState } from '../testing/decider-spec';
import { AGENT, at, NOW, registered } from '../testing/fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';

const agent = [registered()];

describe('SubmitWakeHint on an idle agent', () => {
  it('is triggered: emitted at once as a liveness-only system_tick (priority next)', () => {
    given(agent)
      .when(wcmd.wakeHint())
      .then([
        {
          type: 'WakeHintSubmitted',
          data: {
            agent_id: AGENT,
            source: 'ci',
            reason: 'build finished',
            body: null,
            intent_id: null,
            disposition: 'triggered',
            message_id: 'm-hint',
            at: NOW,
          },
        },
        {
          type: 'MessageQueued',
          data: {
            agent_id: AGENT,
            message_id: 'm-hint',
            kind: 'system_tick',
            priority: 'next',
            authority: 'runtime_instruction',
            origin: 'wake_hint',
            body: 'Wake hint from ci: build finished',
            work_item_id: null,
            task_id: null,
            correlation_id: null,
            causation_id: null,
            liveness_only: true,
            at: NOW,
          },
        },
      ]);
  });

  it('is contentful with a body', () => {
    given(agent)
      .when(wcmd.wakeHint({ body: 'build 12 is green' }))
      .thenState((after) =>
        expect(after.messages.get('m-hint')).toMatchObject({
          body: 'build 12 is green',
          liveness_only: false,
          status: 'queued',
        }),
      );
  });

  it('wakes an asleep agent (its tick is new input)', () => {
    givenState({ ...replay(agent), posture: 'asleep' })
      .when(wcmd.wakeHint())
      .thenState((after) => expect(after.posture).toBe('awake_idle'));
  });
});

describe('SubmitWakeHint while busy', () => {
  const busy = history(agent, wcmd.enqueue('m-0'));

  it('is coalesced while the queue is not empty: kept pending, no message', () => {
    given(busy)
      .when(wcmd.wakeHint())
      .thenState((after, events) => {
        expect(events).toEqual([
          {
            type: 'WakeHintSubmitted',
            data: {
              agent_id: AGENT,
              source: 'ci',
              reason: 'build finished',
              body: null,
              intent_id: null,
              disposition: 'coalesced',
              message_id: null,
              at: NOW,
            },
          },
        ]);
        expect(after.pending_wake_hint).toEqual({
          source: 'ci',
          reason: 'build finished',
          body: null,
          intent_id: null,
          created_at: NOW,
        });
        expect(after.queue).toEqual(['m-0']);
      });
  });

  it('keeps only the newest pending hint', () => {
    given(history(busy, wcmd.wakeHint({ source: 'old' }, at(61))))
      .when(wcmd.wakeHint({ source: 'new' }, at(62)))
      .thenState((after) => expect(after.pending_wake_hint).toMatchObject({ source: 'new', created_at: at(62) }));
  });

  it('is coalesced while a turn is open, even with an empty queue', () => {
    givenState({ ...replay(agent), open_turn_id: 'turn-1', posture: 'awake_running' })
      .when(wcmd.wakeHint())
      .thenState((after, events) => {
        expect(events[0].data).toMatchObject({ disposition: 'coalesced' });
        expect(after.pending_wake_hint).toMatchObject({ source: 'ci' });
      });
  });

  it('a later triggered hint supersedes the pending one', () => {
    const pending = history(busy, wcmd.wakeHint({ source: 'old' }, at(61)), wcmd.drop('m-0'));
    given(pending)
      .when(wcmd.wakeHint({ source: 'new' }, at(62)))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['WakeHintSubmitted', 'MessageQueued']);
        expect(after.pending_wake_hint).toBeNull();
      });
  });
});

describe('SubmitWakeHint on a gated agent', () => {
  it('is ignored when stopped: recorded, nothing pending, nothing queued', () => {
    given(history(agent, wcmd.control('stop')))
      .when(wcmd.wakeHint())
      .thenState((after, events) => {
        expect(events).toHaveLength(1);
        expect(events[0].data).toMatchObject({ disposition: 'ignored', message_id: null });
        expect(after.pending_wake_hint).toBeNull();
        expect(after.queue).toEqual([]);
      });
  });

  it('still emits a tick when paused (messages accumulate)', () => {
    given(history(agent, wcmd.control('pause')))
      .when(wcmd.wakeHint())
      .thenState((after) => {
        expect(after.posture).toBe('paused');
        expect(after.queue).toEqual(['m-hint']);
      });
  });
});

describe('SubmitWakeHint validation', () => {
  it.each([
    [{ source: '' }, 'source'],
    [{ reason: ' ' }, 'reason'],
    [{ body: 42 }, 'body'],
    [{ message_id: 'bad id' }, 'message_id'],
  ])('refuses %j', (data, field) => {
    given(agent)
      .when(wcmd.wakeHint(data as never))
      .thenThrows('validation_failed', { field });
  });

  it('needs a message id only when the hint is emitted', () => {
    given(agent)
      .when(wcmd.wakeHint({ message_id: undefined }))
      .thenThrows('validation_failed', { field: 'message_id', rule: 'required' });
    given(history(agent, wcmd.enqueue('m-0')))
      .when(wcmd.wakeHint({ message_id: undefined }))
      .thenState((_after, events) => expect(events[0].data).toMatchObject({ disposition: 'coalesced' }));
  });

  it('refuses a message id already used', () => {
    given(history(agent, wcmd.enqueue('m-hint'), wcmd.drop('m-hint')))
      .when(wcmd.wakeHint())
      .thenThrows('already_exists', { resource: 'message' });
  });
});
