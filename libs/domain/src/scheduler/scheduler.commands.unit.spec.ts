import { replay } from '../agent/agent.evolve';
import { given } from '../testing/decider-spec';
import { AGENT, at, cmd, NOW, registered } from '../testing/fixtures';
import { nextDecision, tcmd } from '../testing/turn-fixtures';
import { history, typesOf, wcmd } from '../testing/waiting-fixtures';
import { decideNextAction } from './decide-next-action';
import { toDecisionRecord } from './decision';

const agent = [registered()];
const focused = history(agent, cmd.create('w-1'), cmd.pick('w-1'));

describe('RecordDecision', () => {
  it('records the decision in its stored form, with the now it was computed at', () => {
    const waiting = history(agent, wcmd.waitFor('i-1', null));
    const decision = nextDecision(waiting);
    given(waiting)
      .when(tcmd.recordDecision(decision))
      .thenState((after, events) => {
        expect(events).toEqual([
          {
            type: 'SchedulerDecisionRecorded',
            data: { agent_id: AGENT, decision: toDecisionRecord(decision), at: NOW },
          },
        ]);
        expect(after.last_decision).toEqual({ decision: toDecisionRecord(decision), at: NOW });
      });
  });

  it('emits a tick in the same append as its record, so no writer can record its key again', () => {
    const decision = nextDecision(focused);
    given(focused)
      .when(tcmd.recordDecision(decision))
      .thenState((after, events) => {
        expect(typesOf(events)).toEqual(['SchedulerDecisionRecorded', 'SystemTickEmitted', 'MessageQueued']);
        expect(events[1].data).toMatchObject({ message_id: 'm-tick', idempotency_key: decision.idempotency_key });
        expect(after.emitted_tick_keys.has(decision.idempotency_key!)).toBe(true);
        expect(decideNextAction(after, NOW)).not.toMatchObject({ idempotency_key: decision.idempotency_key });
      });
  });

  it('refuses a tick without the message id it is queued under, or under one already used', () => {
    const decision = nextDecision(focused);
    given(focused)
      .when({ type: 'RecordDecision', data: { decision }, meta: tcmd.recordDecision(decision).meta })
      .thenThrows('validation_failed', { field: 'message_id', rule: 'required' });
    const used = history(focused, wcmd.enqueue('m-1'), wcmd.drop('m-1'));
    given(used)
      .when(tcmd.recordDecision(nextDecision(used), undefined, undefined, 'm-1'))
      .thenThrows('already_exists', { resource: 'message' });
  });

  it('records a decision without effects only when it differs from the last recorded one', () => {
    const waiting = history(agent, wcmd.waitFor('i-1', null));
    const once = history(waiting, tcmd.recordDecision(nextDecision(waiting)));
    given(once)
      .when(tcmd.recordDecision(nextDecision(once)))
      .thenNothing();
    const changed = history(once, wcmd.waitFor('i-2', null));
    given(changed)
      .when(tcmd.recordDecision(nextDecision(changed)))
      .thenState((_after, events) => expect(events).toHaveLength(1));
  });

  it('always records a decision with effects', () => {
    const once = history(focused, tcmd.recordDecision(nextDecision(focused)));
    given(once)
      .when(tcmd.recordDecision(nextDecision(once)))
      .thenState((_after, events) => expect(typesOf(events)).toEqual(['SchedulerDecisionRecorded']));
  });

  it('refuses a stale decision (computed on an older state by a racing worker)', () => {
    const stale = nextDecision(agent);
    given(focused)
      .when(tcmd.recordDecision(stale))
      .thenThrows('conflict', { rule: 'stale_decision', expected: { reason: 'continue_active' } });
  });

  it('recomputes at the given `at` rather than meta.now', () => {
    const blocked = history(agent, cmd.create('w-1'), cmd.update('w-1', { blocked_by: 'CI', recheck_at: at(90) }));
    given(blocked)
      .when(tcmd.recordDecision(nextDecision(blocked, at(60)), at(95), at(60)))
      .thenState((after) => expect(after.last_decision).toMatchObject({ at: at(60), decision: { kind: 'Sleep' } }));
  });

  it('refuses a decision that is not one', () => {
    given(agent)
      .when(tcmd.recordDecision({ kind: 'Dance' } as never))
      .thenThrows('validation_failed', { field: 'decision.kind' });
  });
});

describe('a recorded Sleep', () => {
  const slept = history(agent, tcmd.recordDecision(nextDecision(agent)));

  it('moves the posture to asleep, so the next idle decision is StayIdle', () => {
    expect(typesOf(slept)).toEqual(['AgentRegistered', 'SchedulerDecisionRecorded', 'AgentSlept']);
    expect(replay(slept).posture).toBe('asleep');
    expect(nextDecision(slept)).toMatchObject({ kind: 'StayIdle', reason: 'asleep' });
  });

  it('is followed by one StayIdle record, then nothing', () => {
    const idle = history(slept, tcmd.recordDecision(nextDecision(slept)));
    expect(typesOf(idle).slice(-1)).toEqual(['SchedulerDecisionRecorded']);
    given(idle)
      .when(tcmd.recordDecision(nextDecision(idle)))
      .thenNothing();
  });

  it('ends with any new input (awake_idle)', () => {
    expect(replay(history(slept, wcmd.enqueue('m-1'))).posture).toBe('awake_idle');
    expect(replay(history(slept, wcmd.wakeHint())).posture).toBe('awake_idle');
  });
});

describe('EmitSystemTick', () => {
  const decision = nextDecision(focused);

  it('queues the tick (priority next, runtime authority) with its key, without touching the focus', () => {
    given(focused)
      .when(tcmd.emitTick(decision, 'm-tick'))
      .thenState((after, events) => {
        expect(events[0]).toEqual({
          type: 'SystemTickEmitted',
          data: {
            agent_id: AGENT,
            message_id: 'm-tick',
            reason: 'continue_active',
            idempotency_key: 'work_queue:continue_active:w-1:1',
            work_item_id: 'w-1',
            at: NOW,
          },
        });
        expect(events[1]).toMatchObject({
          type: 'MessageQueued',
          data: {
            message_id: 'm-tick',
            kind: 'system_tick',
            priority: 'next',
            authority: 'runtime_instruction',
            origin: 'scheduler',
            work_item_id: 'w-1',
            liveness_only: false,
            correlation_id: 'work_queue:continue_active:w-1:1',
          },
        });
        expect(String((events[1].data as { body: unknown }).body)).toMatch(
          /^continue_active: work item w-1 is the current focus/,
        );
        expect(after.emitted_tick_keys.toJSON()).toEqual({ 'work_queue:continue_active:w-1:1': NOW });
        expect(after.current_work_item_id).toBe('w-1');
      });
  });

  it('records nothing for a key already emitted (two workers racing emit one tick)', () => {
    given(history(focused, tcmd.emitTick(decision, 'm-tick')))
      .when(tcmd.emitTick(decision, 'm-tick-2'))
      .thenNothing();
  });

  it('refuses a tick the scheduler would no longer emit', () => {
    given(history(focused, wcmd.enqueue('m-1')))
      .when(tcmd.emitTick(decision, 'm-tick'))
      .thenThrows('conflict', { rule: 'stale_decision' });
  });

  it('refuses a decision that is not a tick, and needs a new message id', () => {
    given(agent)
      .when(tcmd.emitTick(nextDecision(agent), 'm-tick'))
      .thenThrows('validation_failed', { field: 'decision.kind' });
    given(history(focused, wcmd.enqueue('m-tick'), wcmd.drop('m-tick')))
      .when(tcmd.emitTick(decision, 'm-tick'))
      .thenThrows('already_exists', { resource: 'message' });
  });

  it('emits a pending wake hint once and clears it', () => {
    const pending = history(
      agent,
      wcmd.enqueue('m-0'),
      wcmd.wakeHint({ source: 'ci', body: 'green', message_id: undefined }),
      wcmd.drop('m-0'),
    );
    const hint = nextDecision(pending);
    given(pending)
      .when(tcmd.emitTick(hint, 'm-hint'))
      .thenState((after) => {
        expect(after.pending_wake_hint).toBeNull();
        expect(after.messages.get('m-hint')).toMatchObject({
          origin: 'wake_hint',
          body: 'green',
          liveness_only: false,
          priority: 'next',
        });
        expect(after.emitted_tick_keys.keys()).toEqual([hint.idempotency_key]);
      });
  });
});

describe('ReduceMessage', () => {
  const liveness = history(agent, wcmd.wakeHint());

  it('dequeues and processes a reduce-only message at once, without a turn', () => {
    given(liveness)
      .when(tcmd.reduce('m-hint'))
      .thenState((after, events) => {
        expect(events).toEqual([
          { type: 'MessageDequeued', data: { agent_id: AGENT, message_id: 'm-hint', turn_id: null, at: NOW } },
          { type: 'MessageProcessed', data: { agent_id: AGENT, message_id: 'm-hint', turn_id: null, at: NOW } },
        ]);
        expect(after).toMatchObject({ queue: [], open_turn_id: null });
        expect(after.messages.get('m-hint')!.status).toBe('processed');
      });
  });

  it('records nothing for a processed message', () => {
    given(history(liveness, tcmd.reduce('m-hint')))
      .when(tcmd.reduce('m-hint'))
      .thenNothing();
  });

  it('refuses a message that needs a model turn', () => {
    given(history(agent, wcmd.enqueue('m-1')))
      .when(tcmd.reduce('m-1'))
      .thenThrows('conflict', { rule: 'stale_decision', expected: { kind: 'StartModelTurn' } });
  });
});
