import fc from 'fast-check';
import type { AgentState } from '../agent/agent.state';
import { reviveAgentState } from '../agent/agent.state';
import { isTerminalTaskStatus } from '../task/task.state';
import type { AgentCommand } from '../agent/agent.commands';
import { meta, registered } from '../testing/fixtures';
import { type Action, actionArb, play, type World } from '../testing/random-actions';
import { wcmd } from '../testing/waiting-fixtures';
import { apply, streamOf } from '../testing/worker-simulation';
import {
  type Closure,
  CLOSURE_REASONS,
  type ClosureReason,
  closureOf,
  type DeadLetterInput,
  runtimePosture,
} from './closure';

// Issue 17 item 4: closure follows the precedence on random agent lives. The oracle below is
// written from the list, reading the raw records; it never calls the closure view.
//   runtime error (a dead letter, or the last turn's terminal error) -> failed;
//   operator-input wait, active blocking task, active waiting intent, active timer -> waiting;
//   turn in progress -> continuable; last turn terminal failed -> failed;
//   runnable work -> continuable; last turn completed, or nothing waiting -> completed.

type Ending = 'completed' | 'failed' | 'cancelled';
/** Besides the random actions: a blocking task, and a delegation's life on the parent's side. */
type Life =
  Action | { t: 'blockingTask' } | { t: 'delegate' } | { t: 'awaitChild' } | { t: 'childEnds'; state: Ending };
const lifeArb: fc.Arbitrary<Life> = fc.oneof(
  { weight: 12, arbitrary: actionArb },
  { weight: 1, arbitrary: fc.constant({ t: 'blockingTask' as const }) },
);
/** Lives with delegations: the parent delegates its focus, may wait on the child task, sees it end. */
const delegationLifeArb: fc.Arbitrary<Life> = fc.oneof(
  { weight: 8, arbitrary: actionArb },
  { weight: 2, arbitrary: fc.constant({ t: 'delegate' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'awaitChild' as const }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Ending>('completed', 'failed', 'cancelled').map((state) => ({
      t: 'childEnds' as const,
      state,
    })),
  },
);
const DEAD_LETTER: DeadLetterInput = { projection: 'read_models', position: '9', revision: '3', event_type: 'X' };

/** The parent's newest delegation still running (the one a wait or an end is about). */
const runningDelegation = (state: AgentState) =>
  state.delegations
    .values()
    .filter((d) => d.role === 'parent' && (d.state === 'delegated' || d.state === 'working'))
    .at(-1);

function playLife(w: World, a: Life): World {
  if (a.t !== 'blockingTask' && a.t !== 'delegate' && a.t !== 'awaitChild' && a.t !== 'childEnds') return play(w, a);
  const seq = w.stream.seq + 1;
  const at = { ...w.stream, seq };
  const running = runningDelegation(w.stream.state);
  let command: AgentCommand | null = null;
  if (a.t === 'blockingTask') command = wcmd.createTask(`tb-${seq}`, { wait_policy: 'blocking' });
  if (a.t === 'delegate')
    command = {
      type: 'DelegateWorkItem',
      data: {
        delegation_id: `dlg-${seq}`,
        child_agent_id: `kid-${seq}`,
        initial_message: 'do it',
        message_id: `md-${seq}`,
      },
      meta: meta(),
    };
  if (a.t === 'awaitChild' && running)
    command = wcmd.waitFor(`iw-${seq}`, running.parent_work_item_id, {
      wake: 'task_result',
      resource: running.delegation_id,
    });
  if (a.t === 'childEnds' && running)
    command = {
      type: 'CompleteDelegation',
      data: {
        delegation_id: running.delegation_id,
        state: a.state,
        result_summary: a.state === 'completed' ? 'done' : null,
        reason: a.state === 'completed' ? null : 'child_stopped',
        child_work_item_id: null,
        message_id: `mr-${seq}`,
      },
      meta: meta(),
    };
  return { ...w, stream: command === null ? at : apply(at, command) };
}

function statesOf(actions: Life[]): AgentState[] {
  const states: AgentState[] = [];
  actions.reduce<World>(
    (w, a) => {
      const next = playLife(w, a);
      states.push(next.stream.state);
      return next;
    },
    { stream: streamOf([registered()]), minute: 60 },
  );
  return states;
}

/** The oracle: the list, over the records as they are. */
function expected(state: AgentState, deadLetter: boolean): { closure: Closure; reason: ClosureReason } {
  const turns = state.turns.values();
  const newest = turns.reduce<(typeof turns)[number] | null>(
    (a, t) => (a === null || t.turn_index > a.turn_index ? t : a),
    null,
  );
  const terminal = newest?.terminal ?? null;
  const terminalError =
    terminal !== null &&
    (terminal.terminal_kind === 'baseline_over_budget' ||
      (terminal.terminal_kind === 'interrupted' && newest?.recovery === 'quarantined'));
  if (deadLetter || terminalError) return { closure: 'failed', reason: 'runtime_error' };

  const intents = state.waiting_intents.values().filter((i) => i.status === 'active');
  const openItems = state.work_items.values().filter((i) => i.state === 'open');
  const operatorWait =
    openItems.some((i) => i.plan_status === 'needs_input') || intents.some((i) => i.wake === 'operator_input');
  if (operatorWait) return { closure: 'waiting', reason: 'waiting_operator' };
  const awaited = new Set(intents.filter((i) => i.wake === 'task_result').map((i) => i.resource));
  const blockingTask = state.tasks
    .values()
    .some((t) => !isTerminalTaskStatus(t.status) && (t.wait_policy === 'blocking' || awaited.has(t.id)));
  if (blockingTask) return { closure: 'waiting', reason: 'waiting_task' };
  if (intents.length > 0) return { closure: 'waiting', reason: 'waiting_intent' };
  if (state.timers.values().some((t) => t.status === 'scheduled'))
    return { closure: 'waiting', reason: 'waiting_timer' };

  if (state.open_turn_id !== null) return { closure: 'continuable', reason: 'turn_in_progress' };
  if (terminal?.terminal_kind === 'failed') return { closure: 'failed', reason: 'last_turn_failed' };

  const itemWaits = new Set(intents.filter((i) => i.scope === 'work_item').map((i) => i.work_item_id));
  const runnableItem = openItems.some(
    (i) => i.plan_status !== 'needs_input' && i.blocked_by === null && !itemWaits.has(i.id),
  );
  const queued = state.messages.values().some((m) => m.status === 'queued');
  if (queued || state.pending_wake_hint !== null || runnableItem)
    return { closure: 'continuable', reason: 'runnable_work' };
  if (terminal?.terminal_kind === 'completed') return { closure: 'completed', reason: 'last_turn_completed' };
  return { closure: 'completed', reason: 'nothing_waiting' };
}

/** Lives of turns and items only (no waits, timers or hints), so the turn rules are reached too. */
const TURN_ACTIONS: ReadonlySet<string> = new Set([
  'create',
  'pick',
  'todo',
  'complete',
  'enqueue',
  'activate',
  'round',
  'terminal',
  'worker',
]);
const turnLifeArb = actionArb.filter((a) => TURN_ACTIONS.has(a.t));
const lives = fc.oneof(
  fc.array(lifeArb, { minLength: 1, maxLength: 80, size: 'max' }),
  fc.array(turnLifeArb, { minLength: 1, maxLength: 40, size: 'max' }),
);

const delegationLives = fc.array(delegationLifeArb, { minLength: 1, maxLength: 80, size: 'max' });

describe('closure over random agent lives (property)', () => {
  it('follows the same precedence on lives with delegations (the child task, its wait, its result)', () => {
    fc.assert(
      fc.property(delegationLives, fc.boolean(), (actions, deadLetter) => {
        for (const state of statesOf(actions)) {
          const view = closureOf(state, deadLetter ? { dead_letter: DEAD_LETTER } : {});
          expect({ closure: view.closure, reason: view.reason }).toEqual(expected(state, deadLetter));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('follows the precedence of issue 17 item 4 on every state a life goes through', () => {
    fc.assert(
      fc.property(lives, fc.boolean(), (actions, deadLetter) => {
        for (const state of statesOf(actions)) {
          const view = closureOf(state, deadLetter ? { dead_letter: DEAD_LETTER } : {});
          expect({ closure: view.closure, reason: view.reason }).toEqual(expected(state, deadLetter));
          expect(view.evidence.length > 0 || view.reason === 'nothing_waiting').toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('is the same on a snapshot of the state (JSON round trip), and awaiting_task only when closure waits on a task', () => {
    fc.assert(
      fc.property(lives, (actions) => {
        for (const state of statesOf(actions)) {
          const revived = reviveAgentState(JSON.parse(JSON.stringify(state)));
          expect(closureOf(revived)).toEqual(closureOf(state));
          if (runtimePosture(state) === 'awaiting_task') {
            const { reason } = expected(state, false);
            expect(['runtime_error', 'waiting_operator', 'waiting_task', 'last_turn_failed']).toContain(reason);
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('the random lives of the closure property', () => {
  it('delegate, wait on the child task and see it end (delegations are in the lives, not only beside them)', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(delegationLives, (actions) => {
        for (const state of statesOf(actions)) {
          for (const d of state.delegations.values()) seen.add(`delegation:${d.state}`);
          const awaited = state.waiting_intents
            .values()
            .some(
              (i) => i.status === 'active' && i.wake === 'task_result' && state.delegations.has(String(i.resource)),
            );
          if (awaited && closureOf(state).reason === 'waiting_task') seen.add('waiting_on_child');
        }
      }),
      { numRuns: 150, seed: 17 },
    );
    expect([...seen].sort()).toEqual(
      [
        'delegation:cancelled',
        'delegation:completed',
        'delegation:delegated',
        'delegation:failed',
        'waiting_on_child',
      ].sort(),
    );
  });

  it('reach every rule of the precedence (the property is not vacuous)', () => {
    const seen = new Set<ClosureReason>();
    fc.assert(
      fc.property(lives, fc.boolean(), (actions, deadLetter) => {
        for (const state of statesOf(actions))
          seen.add(closureOf(state, deadLetter ? { dead_letter: DEAD_LETTER } : {}).reason);
      }),
      { numRuns: 150, seed: 17 },
    );
    expect([...seen].sort()).toEqual([...CLOSURE_REASONS].sort());
  });
});
