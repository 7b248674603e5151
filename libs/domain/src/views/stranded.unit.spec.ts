import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import type { AgentState } from '../agent/agent.state';
import type { DelegationRecord } from '../delegation/delegation.state';
import { RecordMap } from '../shared/record-map';
import { at, cmd, intent, registered, stateOf } from '../testing/fixtures';
import { nextDecision, tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { strandingWatches } from './stranded';
import { type StrandedThresholds, strandedWork } from './stranded.evaluate';

// docs/domain-contract.md §12 (issue 19 item 4): given a history, when the stranded work is read
// at a clock, then each condition is reported from its instant on, with its evidence.

const MIN = 60_000;
const T: StrandedThresholds = {
  runnable_after_ms: 5 * MIN,
  host_after_ms: 10 * MIN,
  overdue_grace_ms: 2 * MIN,
  delegation_after_ms: 3 * MIN,
};
const given = (...commands: AgentCommand[]): AgentEvent[] => history([registered()], ...commands);
/** Commands default to at(60): the state is reached then. */
const AS_OF = at(60);
const read = (state: AgentState, minute: number, asOf = AS_OF) => strandedWork(state, asOf, T, at(minute));
const kinds = (state: AgentState, minute: number, asOf = AS_OF) => read(state, minute, asOf).map((e) => e.kind);

describe('stranded work: one condition at a time', () => {
  it('given a fresh agent, then nothing is stranded at any clock', () => {
    expect(read(replay(given()), 10_000)).toEqual([]);
    expect(strandingWatches(replay([]), AS_OF)).toEqual([]);
  });

  it('given a queued prompt the scheduler has not decided on, then it is runnable without a decision after N', () => {
    const state = replay(given(wcmd.enqueue('m-1')));
    expect(kinds(state, 64)).toEqual([]);
    const [entry] = read(state, 66);
    expect(entry).toMatchObject({
      agent_id: 'agent-1',
      kind: 'runnable_without_decision',
      subject: { message_id: 'm-1' },
      stranded_at: '2026-01-01T01:05:00.000Z',
      age_ms: MIN,
    });
    expect(entry.evidence).toEqual([
      'decision:StartModelTurn',
      `reason:${nextDecision(given(wcmd.enqueue('m-1'))).reason}`,
      'last_decision:none',
    ]);
  });

  it('given the model turn recorded but never started, then it waits for an agent host from the decision on', () => {
    const events = given(wcmd.enqueue('m-1'));
    const state = replay(history(events, tcmd.recordDecision(nextDecision(events), at(61), at(61))));
    expect(kinds(state, 70, at(61))).toEqual([]);
    expect(read(state, 71, at(61))).toMatchObject([
      {
        kind: 'model_turn_waiting_for_host',
        subject: { message_id: 'm-1' },
        since: at(61),
        stranded_at: '2026-01-01T01:11:00.000Z',
      },
    ]);
  });

  it('given a blocked item whose recheck is to come, then it is runnable without a decision from the recheck on', () => {
    const state = replay(given(cmd.create('w-1'), cmd.update('w-1', { blocked_by: 'ci', recheck_at: at(70) })));
    expect(kinds(state, 74)).toEqual([]);
    expect(read(state, 75)).toMatchObject([
      { kind: 'runnable_without_decision', subject: { work_item_id: 'w-1' }, since: at(70) },
    ]);
  });

  it('given an open turn whose lease passed, then it is stranded after the grace (the scheduler should expire it)', () => {
    const state = replay(given(wcmd.enqueue('m-1'), tcmd.startTurn('turn-1', 'm-1')));
    expect(kinds(state, 62)).toEqual([]);
    expect(read(state, 63)).toMatchObject([
      { kind: 'turn_past_lease', subject: { turn_id: 'turn-1', message_id: 'm-1' }, since: '2026-01-01T01:01:00.000Z' },
    ]);
  });

  it('given an active task past its expected end, then it is stranded after the grace', () => {
    const state = replay(given(wcmd.createTask('t-1', { expected_duration_ms: 10 * MIN })));
    expect(kinds(state, 71)).toEqual([]);
    expect(read(state, 72)).toMatchObject([{ kind: 'task_past_expected_end', subject: { task_id: 't-1' } }]);
  });

  it('given a timer past its fire_at, then it is overdue after the grace; a stopped agent holds an interval timer', () => {
    const state = replay(given(wcmd.createTimer('tm-1', { fire_at: at(65) })));
    expect(kinds(state, 66)).toEqual([]);
    expect(read(state, 67)).toMatchObject([{ kind: 'timer_overdue', subject: { timer_id: 'tm-1' }, since: at(65) }]);
    const held = replay(given(wcmd.createTimer('tm-2', { fire_at: at(65), interval_ms: MIN }), wcmd.control('stop')));
    expect(kinds(held, 600)).toEqual([]);
  });

  it('given a timer wait whose timer is gone, then it is stranded at once, from when the timer ended', () => {
    const events = given(cmd.create('w-1'), wcmd.createTimer('tm-1', { fire_at: at(90) }));
    const state = stateOf(events, [intent('i-1', 'w-1', { wake: 'timer', timer_id: 'tm-1' })]);
    expect(kinds(state, 60)).toEqual([]);
    const cancelled = stateOf(history(events, wcmd.cancelTimer('tm-1')), [
      intent('i-1', 'w-1', { wake: 'timer', timer_id: 'tm-1' }),
    ]);
    expect(read(cancelled, 60)).toMatchObject([
      {
        kind: 'timer_wait_without_timer',
        subject: { intent_id: 'i-1', timer_id: 'tm-1' },
        since: at(60),
        evidence: ['timer:tm-1:cancelled'],
      },
    ]);
    const none = stateOf(events, [intent('i-2', null, { wake: 'timer' })]);
    expect(read(none, 60)).toMatchObject([{ kind: 'timer_wait_without_timer', evidence: ['timer:none:unknown'] }]);
  });

  it('given a task wait on a terminal or unknown task, then it is stranded at once', () => {
    const events = given(cmd.create('w-1'), wcmd.createTask('t-1'), wcmd.taskStatus('t-1', 'failed'));
    const state = stateOf(events, [
      intent('i-1', 'w-1', { wake: 'task_result', resource: 't-1' }),
      intent('i-2', 'w-1', { wake: 'task_result', resource: 't-x' }),
    ]);
    expect(read(state, 60).map((e) => [e.kind, e.subject.intent_id, e.evidence])).toEqual([
      ['task_wait_without_task', 'i-2', ['task:t-x:unknown']],
      ['task_wait_without_task', 'i-1', ['task:t-1:failed']],
    ]);
  });

  it('given a blocked item with no wait and no recheck, then it is stranded at once; a wait or a recheck to come keeps it', () => {
    const blocked = given(cmd.create('w-1'), cmd.update('w-1', { blocked_by: 'review' }));
    expect(read(replay(blocked), 60)).toMatchObject([
      {
        kind: 'blocked_without_wait',
        subject: { work_item_id: 'w-1' },
        evidence: ['blocked_by:review', 'recheck_at:none'],
      },
    ]);
    expect(kinds(stateOf(blocked, [intent('i-1', null)]), 60)).toEqual([]);
    const recheck = given(cmd.create('w-1'), cmd.update('w-1', { blocked_by: 'review', recheck_at: at(500) }));
    expect(kinds(replay(recheck), 60)).toEqual([]);
  });

  it('given an asleep agent with a queued message (a sleep recorded on a stale state), then it is stranded at once', () => {
    // The decider wakes an agent on any input and refuses a stale Sleep: this state is reached only
    // by a broken writer, so it is placed by hand.
    const sleep = { kind: 'Sleep' as const, reason: 'no_runnable_work', model_reentry: false, liveness_only: false };
    const decision = {
      ...sleep,
      message_id: null,
      work_item_id: null,
      task_id: null,
      idempotency_key: null,
      evidence: [],
    };
    const state: AgentState = {
      ...replay(given(wcmd.enqueue('m-1'))),
      posture: 'asleep',
      last_decision: { decision, at: at(61) },
    };
    expect(read(state, 61, at(61))).toContainEqual(
      expect.objectContaining({
        kind: 'asleep_with_queued_messages',
        since: at(61),
        subject: expect.objectContaining({ message_id: 'm-1' }),
      }),
    );
  });
});

describe('stranded work: a delegation whose counterpart is missing', () => {
  const record = (fields: Partial<DelegationRecord> = {}): DelegationRecord => ({
    delegation_id: 'dlg-1',
    role: 'parent',
    parent_agent_id: 'agent-1',
    parent_work_item_id: 'w-parent',
    child_agent_id: 'child-1',
    child_work_item_id: null,
    state: 'delegated',
    result_summary: null,
    reason: null,
    task_id: 'dlg-1',
    label: 'label',
    message_id: 'm-d',
    delegated_at: at(60),
    ended_at: null,
    ...fields,
  });
  const withDelegation = (d: DelegationRecord): AgentState => ({
    ...replay(given()),
    delegations: RecordMap.from([[d.delegation_id, d] as const]),
  });

  it('given no record on the child after the delay, then it is stranded; the child recording it clears it', () => {
    const state = withDelegation(record());
    expect(strandedWork(state, AS_OF, T, at(62))).toEqual([]);
    expect(strandedWork(state, AS_OF, T, at(63))).toMatchObject([
      {
        kind: 'delegation_counterpart_missing',
        subject: { delegation_id: 'dlg-1' },
        evidence: expect.arrayContaining(['flag:counterpart_missing']),
      },
    ]);
    expect(strandedWork(state, AS_OF, T, at(63), () => ({ 'dlg-1': 'open' }))).toEqual([]);
  });

  it('given the parent ended it and the child has not, then it is stranded from the end on', () => {
    const state = withDelegation(record({ state: 'completed', ended_at: at(70) }));
    const child = () => ({ 'dlg-1': 'open' as const });
    expect(strandedWork(state, AS_OF, T, at(72), child)).toEqual([]);
    expect(strandedWork(state, AS_OF, T, at(73), child)).toMatchObject([
      {
        kind: 'delegation_counterpart_missing',
        since: at(70),
        evidence: expect.arrayContaining(['flag:completion_missing']),
      },
    ]);
    expect(strandedWork(state, AS_OF, T, at(73), () => ({ 'dlg-1': 'ended' }))).toEqual([]);
  });
});
