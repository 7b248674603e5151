import type { AgentState, Posture } from '../agent/agent.state';
import { isTerminalTaskStatus, type TaskRecord } from '../task/task.state';
import type { RecoveryClassification, TerminalKind, TurnRecord } from '../turn/turn.state';
import { queuedMessagesInOrder } from './message.view';
import { activeIntents } from './scheduling';
import { scheduledTimers } from './timer.view';

// Closure and the runtime posture (docs/domain-contract.md §2, "Closure"; ADR 0030): how the
// agent's work stands, derived on read from the folded state and one input the state cannot
// hold (a dead letter of the read models). Nothing here is stored in an event.

export type Closure = 'completed' | 'continuable' | 'failed' | 'waiting';
export const CLOSURES: readonly Closure[] = ['completed', 'continuable', 'failed', 'waiting'];

export type ClosureReason =
  | 'runtime_error'
  | 'waiting_operator'
  | 'waiting_task'
  | 'waiting_intent'
  | 'waiting_timer'
  | 'turn_in_progress'
  | 'last_turn_failed'
  | 'runnable_work'
  | 'last_turn_completed'
  | 'nothing_waiting';
export const CLOSURE_REASONS: readonly ClosureReason[] = [
  'runtime_error',
  'waiting_operator',
  'waiting_task',
  'waiting_intent',
  'waiting_timer',
  'turn_in_progress',
  'last_turn_failed',
  'runnable_work',
  'last_turn_completed',
  'nothing_waiting',
];

/** `{closure, reason, evidence}`: the first rule of CLOSURE_RULES that holds, with what made it hold. */
export type ClosureView = { closure: Closure; reason: ClosureReason; evidence: string[] };

/** A poison event of this agent that a read-model projection dead-lettered (its agent is parked, ADR 0015). */
export type DeadLetterInput = { projection: string; position: string; revision: string; event_type: string };

/** The newest turn's terminal, once it ended. */
export type LastTurnTerminal = {
  turn_id: string;
  turn_index: number;
  terminal_kind: TerminalKind;
  recovery: RecoveryClassification | null;
  at: string;
} | null;

/** Why the agent's work failed at the runtime: a dead letter, or the newest turn's terminal error. */
export type RuntimeError =
  ({ source: 'dead_letter' } & DeadLetterInput) | ({ source: 'turn_terminal' } & NonNullable<LastTurnTerminal>) | null;

/** What closure takes beside the state: facts the application knows and the stream does not. */
export type ClosureInputs = { dead_letter?: DeadLetterInput | null };

/** The newest turn started (open or closed), if any. */
export function lastTurn(state: AgentState): TurnRecord | null {
  const id = state.progress?.last_turn_id ?? null;
  return id === null ? null : (state.turns.get(id) ?? null);
}

export function lastTurnTerminal(state: AgentState): LastTurnTerminal {
  const turn = lastTurn(state);
  if (turn === null || turn.terminal === null) return null;
  return {
    turn_id: turn.turn_id,
    turn_index: turn.turn_index,
    terminal_kind: turn.terminal.terminal_kind,
    recovery: turn.recovery,
    at: turn.terminal.at,
  };
}

/**
 * A terminal error of the runtime, not of the work: the turn could not be served within its
 * context budget (`baseline_over_budget`), or its message was quarantined after its third
 * interruption. A `failed` terminal is the host's verdict on the work (its own, later rule).
 */
export function isTerminalError(terminal: LastTurnTerminal): boolean {
  return (
    terminal !== null &&
    (terminal.terminal_kind === 'baseline_over_budget' ||
      (terminal.terminal_kind === 'interrupted' && terminal.recovery === 'quarantined'))
  );
}

export function runtimeError(state: AgentState, inputs: ClosureInputs = {}): RuntimeError {
  if (inputs.dead_letter) return { source: 'dead_letter', ...inputs.dead_letter };
  const terminal = lastTurnTerminal(state);
  return terminal !== null && isTerminalError(terminal) ? { source: 'turn_terminal', ...terminal } : null;
}

/** Active tasks the agent awaits: `wait_policy: blocking`, or named by an active `task_result` wait. */
export function awaitedTasks(state: AgentState): TaskRecord[] {
  const waitedOn = new Set(
    activeIntents(state)
      .filter((i) => i.wake === 'task_result' && i.resource !== null)
      .map((i) => i.resource),
  );
  return state.tasks
    .values()
    .filter((t) => !isTerminalTaskStatus(t.status) && (t.wait_policy === 'blocking' || waitedOn.has(t.id)))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** What can run now: queued messages, a pending wake hint, open runnable items (evidence lines; empty: nothing). */
export function runnableWork(state: AgentState): string[] {
  const hint = state.pending_wake_hint;
  return [
    ...queuedMessagesInOrder(state).map((m) => `message:${m.id}:${m.kind}`),
    ...(hint ? [`wake_hint:${hint.source}`] : []),
    ...state.scheduling_index.runnable.map((id) => `runnable:${id}`),
  ];
}

/** Operator waits: open items with `needs_input` or an operator wait, and agent-scoped operator waits. */
function operatorWaits(state: AgentState): string[] {
  const items = state.work_items
    .values()
    .filter((item) => item.state === 'open' && item.plan_status === 'needs_input')
    .map((item) => `needs_input:${item.id}`);
  const intents = activeIntents(state)
    .filter((i) => i.wake === 'operator_input')
    .map((i) => `intent:${i.id}:operator_input:${i.work_item_id ?? 'agent'}`);
  return [...items, ...intents];
}

type ClosureFacts = { state: AgentState; inputs: ClosureInputs };

/** One rule of the precedence: its closure and reason, and its evidence when it holds (null when it does not). */
export type ClosureRule = {
  closure: Closure;
  reason: ClosureReason;
  holds: (facts: ClosureFacts) => string[] | null;
};

const nonEmpty = (lines: string[]): string[] | null => (lines.length > 0 ? lines : null);

function runtimeErrorEvidence({ state, inputs }: ClosureFacts): string[] | null {
  const error = runtimeError(state, inputs);
  if (error === null) return null;
  return error.source === 'dead_letter'
    ? [`dead_letter:${error.projection}:${error.position}:${error.event_type}`]
    : [`turn:${error.turn_id}:${error.terminal_kind}${error.recovery === null ? '' : `:${error.recovery}`}`];
}

function lastTurnWas(kind: TerminalKind) {
  return ({ state }: ClosureFacts): string[] | null => {
    const terminal = lastTurnTerminal(state);
    return terminal?.terminal_kind === kind ? [`turn:${terminal.turn_id}:${kind}`] : null;
  };
}

/**
 * The precedence of issue 17 item 4, first rule that holds deciding. A later rule (a running
 * delegation, say) is one more entry at its place in this list.
 */
export const CLOSURE_RULES: readonly ClosureRule[] = [
  { closure: 'failed', reason: 'runtime_error', holds: runtimeErrorEvidence },
  { closure: 'waiting', reason: 'waiting_operator', holds: ({ state }) => nonEmpty(operatorWaits(state)) },
  {
    closure: 'waiting',
    reason: 'waiting_task',
    holds: ({ state }) => nonEmpty(awaitedTasks(state).map((t) => `task:${t.id}:${t.status}:${t.wait_policy}`)),
  },
  {
    closure: 'waiting',
    reason: 'waiting_intent',
    holds: ({ state }) =>
      nonEmpty(activeIntents(state).map((i) => `intent:${i.id}:${i.wake}:${i.work_item_id ?? 'agent'}`)),
  },
  {
    closure: 'waiting',
    reason: 'waiting_timer',
    holds: ({ state }) => nonEmpty(scheduledTimers(state).map((t) => `timer:${t.id}:${t.fire_at}`)),
  },
  {
    closure: 'continuable',
    reason: 'turn_in_progress',
    holds: ({ state }) => (state.open_turn_id === null ? null : [`turn:${state.open_turn_id}:open`]),
  },
  { closure: 'failed', reason: 'last_turn_failed', holds: lastTurnWas('failed') },
  { closure: 'continuable', reason: 'runnable_work', holds: ({ state }) => nonEmpty(runnableWork(state)) },
  { closure: 'completed', reason: 'last_turn_completed', holds: lastTurnWas('completed') },
  { closure: 'completed', reason: 'nothing_waiting', holds: () => [] },
];

/** The agent's closure: the first rule of CLOSURE_RULES that holds. Total: the last rule always holds. */
export function closureOf(state: AgentState, inputs: ClosureInputs = {}): ClosureView {
  const facts = { state, inputs };
  for (const rule of CLOSURE_RULES) {
    const evidence = rule.holds(facts);
    if (evidence !== null) return { closure: rule.closure, reason: rule.reason, evidence };
  }
  return { closure: 'completed', reason: 'nothing_waiting', evidence: [] };
}

/** The folded posture, or `awaiting_task` when the agent is awake or asleep, awaits a task, and nothing else can run. */
export type RuntimePosture = Posture | 'awaiting_task';
export const RUNTIME_POSTURES: readonly RuntimePosture[] = [
  'booting',
  'awake_idle',
  'awake_running',
  'asleep',
  'paused',
  'stopped',
  'awaiting_task',
];

export function runtimePosture(state: AgentState): RuntimePosture {
  const idle = state.posture === 'awake_idle' || state.posture === 'asleep';
  if (!idle || state.open_turn_id !== null) return state.posture;
  return awaitedTasks(state).length > 0 && runnableWork(state).length === 0 ? 'awaiting_task' : state.posture;
}
