import fc from 'fast-check';
import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import { decideNextAction } from '../scheduler/decide-next-action';
import { sameDecision } from '../scheduler/decision';
import { recheckKey } from '../scheduler/tick-keys';
import { isTerminalTaskStatus } from '../task/task.state';
import { registered } from '../testing/fixtures';
import { actionArb, play, type World } from '../testing/random-actions';
import { streamOf } from '../testing/worker-simulation';
import { addMs } from '../timer/timer.time';
import { type StrandedEntry, type StrandedThresholds, strandedWork } from './stranded.evaluate';

// Issue 19 item 4, Done when: over random agent lives, the detector reports exactly the stranded
// conditions that hold. The oracle below is written from the list, reading the raw
// records (and the scheduler's own decision for "runnable work"); it never calls the detector.
//   runnable work without a decision for N: the scheduler's decision at now - N is one to carry
//     out (a turn, a tick, a reduce), other than a model turn already recorded, and the state is
//     at least that old;
//   a model turn that is due and recorded, with no open turn, for N since it was recorded;
//   an open turn past its lease + grace; an active task past its lease + grace; a scheduled timer
//     (not held by stop or pause) past its fire_at + grace;
//   an active timer wait whose timer is not scheduled; an active task wait on a terminal or
//     unknown task; an open blocked item with no active wait of its own or of the agent, and no
//     recheck to come; a delegation the counterpart has no record of after the delay (here no
//     counterpart exists); an asleep agent with queued messages.

const MIN = 60_000;
const T: StrandedThresholds = {
  runnable_after_ms: 5 * MIN,
  host_after_ms: 8 * MIN,
  overdue_grace_ms: 3 * MIN,
  delegation_after_ms: 7 * MIN,
};
const OFFSETS_MIN = [0, 1, 3, 5, 8, 12, 40, 200];
const ACTING = new Set(['StartModelTurn', 'ReduceMessageOnly', 'EmitSystemTick']);

const notBefore = (a: string, b: string) => Date.parse(a) >= Date.parse(b);

function oracle(state: AgentState, asOf: string, now: string): Set<string> {
  const out = new Set<string>();
  const due = (since: string, ms: number) => notBefore(now, addMs(since, ms));
  const recorded = state.last_decision;
  if (state.open_turn_id === null) {
    const atAsOf = decideNextAction(state, asOf);
    const recordedTurn =
      atAsOf.kind === 'StartModelTurn' && recorded !== null && sameDecision(recorded.decision, atAsOf);
    if (recordedTurn && due(recorded.at, T.host_after_ms)) out.add(`model_turn_waiting_for_host|${atAsOf.message_id}`);
    // Written as these lives write instants (the scheduler orders two writings of one instant by their text).
    const t = addMs(now, -T.runnable_after_ms).replace('.000Z', 'Z');
    if (!recordedTurn && notBefore(t, asOf)) {
      const d = decideNextAction(state, t);
      if (ACTING.has(d.kind)) out.add(`runnable_without_decision|${d.message_id ?? d.work_item_id ?? ''}`);
    }
  }
  const turn = state.open_turn_id === null ? undefined : state.turns.get(state.open_turn_id);
  if (turn && due(turn.lease_expires_at, T.overdue_grace_ms)) out.add(`turn_past_lease|${turn.turn_id}`);
  for (const task of state.tasks.values())
    if (!isTerminalTaskStatus(task.status) && task.lease_expires_at && due(task.lease_expires_at, T.overdue_grace_ms))
      out.add(`task_past_expected_end|${task.id}`);
  const queued = state.messages.values().filter((m) => m.status === 'queued');
  for (const timer of state.timers.values()) {
    const held =
      timer.interval_ms !== null &&
      (state.posture === 'stopped' ||
        (state.posture === 'paused' && queued.some((m) => m.kind === 'timer_tick' && m.causation_id === timer.id)));
    if (timer.status === 'scheduled' && !held && due(timer.fire_at, T.overdue_grace_ms))
      out.add(`timer_overdue|${timer.id}`);
  }
  const active = state.waiting_intents.values().filter((i) => i.status === 'active');
  for (const intent of active) {
    if (intent.wake === 'timer' && state.timers.get(intent.timer_id ?? '')?.status !== 'scheduled')
      out.add(`timer_wait_without_timer|${intent.id}`);
    if (intent.wake === 'task_result') {
      const task = state.tasks.get(intent.resource ?? '');
      if (!task || isTerminalTaskStatus(task.status)) out.add(`task_wait_without_task|${intent.id}`);
    }
  }
  const agentWait = active.some((i) => i.scope === 'agent');
  for (const item of state.work_items.values()) {
    if (item.state !== 'open' || item.plan_status === 'needs_input' || item.blocked_by === null || agentWait) continue;
    if (active.some((i) => i.scope === 'work_item' && i.work_item_id === item.id)) continue;
    const recheckToCome =
      item.recheck_at !== null && !state.emitted_tick_keys.has(recheckKey(item.id, item.recheck_at));
    if (!recheckToCome) out.add(`blocked_without_wait|${item.id}`);
  }
  for (const d of state.delegations.values())
    if (due(d.delegated_at, T.delegation_after_ms)) out.add(`delegation_counterpart_missing|${d.delegation_id}`);
  if (state.posture === 'asleep' && queued.length > 0) out.add(`asleep_with_queued_messages|${state.queue[0]}`);
  return out;
}

function keyOf(entry: StrandedEntry): string {
  const s = entry.subject;
  switch (entry.kind) {
    case 'runnable_without_decision':
    case 'model_turn_waiting_for_host':
      return `${entry.kind}|${s.message_id ?? s.work_item_id ?? ''}`;
    case 'turn_past_lease':
      return `${entry.kind}|${s.turn_id}`;
    case 'task_past_expected_end':
      return `${entry.kind}|${s.task_id}`;
    case 'timer_overdue':
      return `${entry.kind}|${s.timer_id}`;
    case 'blocked_without_wait':
      return `${entry.kind}|${s.work_item_id}`;
    case 'delegation_counterpart_missing':
      return `${entry.kind}|${s.delegation_id}`;
    case 'asleep_with_queued_messages':
      return `${entry.kind}|${s.message_id}`;
    default:
      return `${entry.kind}|${s.intent_id}`;
  }
}

/** The time of the newest event (every event of these lives carries `at`). */
function asOfOf(events: readonly AgentEvent[]): string {
  for (let i = events.length - 1; i >= 0; i--) {
    const at = (events[i].data as { at?: unknown }).at;
    if (typeof at === 'string') return at;
  }
  throw new Error('no event with a time');
}

const lives = fc.array(actionArb, { minLength: 1, maxLength: 80, size: 'max' });

const EARLIER_RECHECK_STARTS_NOTHING = [
  { t: 'create', id: 'w-1', needs: false },
  { t: 'create', id: 'w-3', needs: true },
  { t: 'block', id: 'w-1', recheck: 2 },
  { t: 'block', id: 'w-3', recheck: 1 },
  { t: 'taskStatus', n: 0, status: 'running' },
] as Parameters<typeof play>[1][];

describe('stranded work over random agent lives (property)', () => {
  it('reports exactly what the definitions find stranded, at every state and many clocks', () => {
    const reached = new Set<string>();
    const kinds = [
      'blocked_without_wait',
      'model_turn_waiting_for_host',
      'runnable_without_decision',
      'timer_overdue',
      'turn_past_lease',
    ].sort();
    // Rounds of 100 lives until every condition below was met at least once (the first round
    // nearly always does): the reach check then does not hang on one lucky draw.
    for (let round = 0; round < 10 && reached.size < kinds.length; round++)
      fc.assert(
        fc.property(lives, (actions) => {
          let world: World = { stream: streamOf([registered()]), minute: 60 };
          for (const action of actions) {
            world = play(world, action);
            const { state, events } = world.stream;
            const asOf = asOfOf(events);
            for (const offset of OFFSETS_MIN) {
              const now = addMs(asOf, offset * MIN);
              const found = strandedWork(state, asOf, T, now);
              const keys = new Set(found.map(keyOf));
              expect([...keys].sort()).toEqual([...oracle(state, asOf, now)].sort());
              expect(keys.size).toBe(found.length);
              for (const entry of found) {
                reached.add(entry.kind);
                expect(notBefore(now, entry.stranded_at)).toBe(true);
                expect(entry.evidence.length).toBeGreaterThan(0);
              }
            }
          }
        }),
        // A life CI found (2026-11-26): the item that needs input has the earlier recheck, which starts
        // nothing; the other item becomes runnable only at its own, later recheck.
        { numRuns: 100, examples: round === 0 ? [[EARLIER_RECHECK_STARTS_NOTHING]] : [] },
      );
    // These lives reach these conditions. Leased tasks, sleep with a queue and delegations are not
    // in their vocabulary, and the decider never lets a timer or task wait lose its timer or task
    // (the intent ends with them): stranded.unit.spec.ts covers those on recorded histories.
    expect([...reached].sort()).toEqual(kinds);
  });
});
