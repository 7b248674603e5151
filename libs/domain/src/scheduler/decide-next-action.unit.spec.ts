import { replay } from '../agent/agent.evolve';
import type { AgentState } from '../agent/agent.state';
import { at } from '../testing/fixtures';
import { ladderFrom, onlyRung, type Rung } from '../testing/scheduler-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { decideNextAction } from './decide-next-action';
import type { SchedulerDecision } from './decision';

const NOW = at(60);
type Expected = Partial<SchedulerDecision>;

const EXPECTED: [Rung, Expected][] = [
  [1, { kind: 'Noop', reason: 'paused' }],
  [2, { kind: 'Noop', reason: 'turn_in_progress', message_id: 'm-op' }],
  [3, { kind: 'StartModelTurn', reason: 'operator_input', message_id: 'm-op', model_reentry: true }],
  [
    4,
    {
      kind: 'EmitSystemTick',
      reason: 'wake_hint',
      idempotency_key: 'wake_hint:ci:1767228900000000',
      liveness_only: true,
    },
  ],
  [
    5,
    {
      kind: 'EmitSystemTick',
      reason: 'continue_active',
      work_item_id: 'w-cur',
      idempotency_key: 'work_queue:continue_active:w-cur:1',
    },
  ],
  [
    6,
    {
      kind: 'EmitSystemTick',
      reason: 'triggered_review',
      work_item_id: 'w-tr',
      idempotency_key: 'work_queue:triggered_review:w-tr:1',
    },
  ],
  [
    7,
    {
      kind: 'EmitSystemTick',
      reason: 'queued_available',
      work_item_id: 'w-q',
      idempotency_key: 'work_queue:queued_available:w-q:1',
    },
  ],
  [
    8,
    {
      kind: 'EmitSystemTick',
      reason: 'work_item_recheck',
      work_item_id: 'w-re',
      idempotency_key: 'work_queue:work_item_recheck:w-re:1767227400000000',
    },
  ],
  [9, { kind: 'WaitForExternalChange', reason: 'waiting_for_external_change' }],
  [10, { kind: 'Sleep', reason: 'no_runnable_work' }],
];

describe('the priority order of docs/domain-contract.md §5, rung by rung', () => {
  it.each(EXPECTED)('rung %i wins over every rung below it', (rung, expected) => {
    expect(decideNextAction(replay(ladderFrom(rung)), NOW)).toMatchObject(expected);
  });

  it.each(EXPECTED.slice(1))('rung %i loses to the rung just above it', (rung) => {
    const above = decideNextAction(replay(ladderFrom((rung - 1) as Rung)), NOW);
    expect(above).toMatchObject(EXPECTED[rung - 2][1]);
    expect(above).not.toMatchObject(EXPECTED[rung - 1][1]);
  });

  it.each(EXPECTED)('rung %i applies on its own', (rung, expected) => {
    const own = rung === 1 ? { kind: 'Noop', reason: 'paused' } : expected;
    const state = rung === 1 ? replay(history(onlyRung(10), wcmd.control('pause'))) : replay(onlyRung(rung));
    expect(decideNextAction(state, NOW)).toMatchObject(own);
  });

  it('stopped beats everything (the hard gate)', () => {
    const stopped = replay(history(ladderFrom(2), wcmd.control('stop')));
    expect(decideNextAction(stopped, NOW)).toMatchObject({ kind: 'Stop', reason: 'stopped', model_reentry: false });
  });

  it('an asleep agent with nothing to do stays idle', () => {
    expect(decideNextAction({ ...replay(onlyRung(10)), posture: 'asleep' }, NOW)).toMatchObject({
      kind: 'StayIdle',
      reason: 'asleep',
    });
  });

  it('an open turn whose lease ran out is still in progress, with the expiry as evidence (the worker expires it)', () => {
    const state = replay(ladderFrom(2));
    expect(decideNextAction(state, NOW).evidence).not.toContain('lease_expired');
    expect(decideNextAction(state, at(61))).toMatchObject({
      kind: 'Noop',
      reason: 'turn_in_progress',
      evidence: expect.arrayContaining(['lease_expired']),
    });
  });

  it('an unregistered stream is a Noop', () => {
    expect(decideNextAction(replay([]), NOW)).toMatchObject({ kind: 'Noop', reason: 'agent_not_registered' });
  });
});

describe('duplicate tick keys', () => {
  const emitted = (state: AgentState, ...keys: string[]): AgentState => ({
    ...state,
    emitted_tick_keys: keys.reduce((emitted, key) => emitted.set(key, NOW), state.emitted_tick_keys),
  });

  it('a key already emitted is skipped with evidence, and the scheduler moves on to the next rung', () => {
    const state = emitted(replay(ladderFrom(5)), 'work_queue:continue_active:w-cur:1');
    const decision = decideNextAction(state, NOW);
    expect(decision).toMatchObject({ reason: 'triggered_review', work_item_id: 'w-tr' });
    expect(decision.evidence).toEqual(
      expect.arrayContaining([
        'duplicate_tick_suppressed',
        'tick_key_already_emitted:work_queue:continue_active:w-cur:1',
      ]),
    );
  });

  it('every skipped key is named, down to the idle decision', () => {
    const keys = [
      'wake_hint:ci:1767228900000000',
      'work_queue:continue_active:w-cur:1',
      'work_queue:triggered_review:w-tr:1',
      'work_queue:queued_available:w-q:1',
      'work_queue:work_item_recheck:w-re:1767227400000000',
    ];
    const decision = decideNextAction(emitted(replay(ladderFrom(4)), ...keys), NOW);
    expect(decision.kind).toBe('WaitForExternalChange');
    expect(decision.evidence.filter((line) => line === 'duplicate_tick_suppressed')).toHaveLength(1);
    expect(decision.evidence).toEqual(expect.arrayContaining(keys.map((key) => `tick_key_already_emitted:${key}`)));
  });

  it('a decision with no skipped key says nothing about duplicates', () => {
    expect(decideNextAction(replay(ladderFrom(5)), NOW).evidence).not.toContain('duplicate_tick_suppressed');
  });
});
