import type { AgentState, Posture } from '../agent/agent.state';
import type { MessagePriority } from '../queue/message.state';
import { compareInstants } from '../shared/time';
import { isTerminalTaskStatus } from '../task/task.state';
import type { CandidateClass } from '../views/candidate-ranking';
import { rankedCandidates } from '../views/candidates';
import {
  type ClosureInputs,
  type ClosureView,
  closureOf,
  type LastTurnTerminal,
  lastTurnTerminal,
  type RuntimeError,
  runtimeError,
  type RuntimePosture,
  runtimePosture,
} from '../views/closure';
import { compareQueuedMessages, queuedMessagesInOrder } from '../views/message.view';
import { scheduledTimers } from '../views/timer.view';
import { compareIntents } from '../views/waiting-intent.view';
import type { DecisionRecord } from './decision';
import { classifyMessage } from './message-classification';
import { wakeHintKey } from './tick-keys';
import { currentItemProjection, openTurnProjection, recheckProjection } from './scheduler-projection.parts';

export type { CurrentItemProjection, OpenTurnProjection, RecheckProjection } from './scheduler-projection.parts';

const CLASSES: readonly CandidateClass[] = [
  'current_runnable',
  'triggered_blocked',
  'queued_runnable',
  'waiting_for_operator',
  'blocked',
  'completed_recent',
];

/** The scheduler_state read model: a pure derivation of AgentState at `now` (nothing here is stored in events). */
export type SchedulerProjection = {
  agent_id: string | null;
  posture: Posture;
  /** Events folded (= stream revision + 1). */
  version: number;
  turn_index: number;
  current_work_item: ReturnType<typeof currentItemProjection>;
  open_turn: ReturnType<typeof openTurnProjection>;
  queue: {
    count: number;
    by_priority: Record<MessagePriority, number>;
    head: {
      message_id: string;
      kind: string;
      priority: MessagePriority;
      model_reentry: boolean;
      reason: string;
    } | null;
  };
  /** Messages that replay after a restart: queued and dequeued ones, in scheduler order (docs/domain-contract.md §7). */
  replay_message_ids: string[];
  counts: Record<
    | CandidateClass
    | 'work_items'
    | 'open'
    | 'completed'
    | 'active_intents'
    | 'triggered_intents'
    | 'scheduled_timers'
    | 'active_tasks'
    | 'emitted_tick_keys'
    | 'briefs',
    number
  >;
  /** Item ids per candidate class, in ranking order. */
  candidates: Record<CandidateClass, string[]>;
  rechecks_due: ReturnType<typeof recheckProjection>;
  active_intents: {
    id: string;
    scope: string;
    work_item_id: string | null;
    wake: string;
    resource: string | null;
    trigger_count: number;
    last_triggered_at: string | null;
  }[];
  scheduled_timers: {
    id: string;
    fire_at: string;
    work_item_id: string | null;
    intent_id: string | null;
    due: boolean;
  }[];
  /** Diagnostics only: task presence is not a wait. */
  active_tasks: { id: string; kind: string; status: string; wait_policy: string; work_item_id: string | null }[];
  pending_wake_hint: {
    source: string;
    reason: string;
    created_at: string;
    intent_id: string | null;
    liveness_only: boolean;
    idempotency_key: string;
  } | null;
  last_decision: (DecisionRecord & { recorded_at: string }) | null;
  /** The newest turn's terminal, once it ended (null while it is open or before the first turn). */
  last_turn_terminal: LastTurnTerminal;
  /** A dead letter of this agent (an input), or the newest turn's terminal error; null when none. */
  runtime_error: RuntimeError;
  /** The posture, or `awaiting_task` when the agent awaits a task and nothing else can run. */
  runtime_posture: RuntimePosture;
  /** How the agent's work stands: completed, continuable, failed or waiting, with the rule's reason and evidence. */
  closure: ClosureView;
};

/** The closure fields of the projection (GET state recomputes them with the application's inputs). */
export function closureProjection(
  state: AgentState,
  inputs: ClosureInputs = {},
): Pick<SchedulerProjection, 'last_turn_terminal' | 'runtime_error' | 'runtime_posture' | 'closure'> {
  return {
    last_turn_terminal: lastTurnTerminal(state),
    runtime_error: runtimeError(state, inputs),
    runtime_posture: runtimePosture(state),
    closure: closureOf(state, inputs),
  };
}

function queueProjection(state: AgentState): SchedulerProjection['queue'] {
  const queued = queuedMessagesInOrder(state);
  const by_priority: Record<MessagePriority, number> = { interject: 0, next: 0, normal: 0, background: 0 };
  for (const message of queued) by_priority[message.priority] += 1;
  const head = queued[0];
  const cls = head ? classifyMessage(state, head) : null;
  return {
    count: queued.length,
    by_priority,
    head:
      head && cls
        ? {
            message_id: head.id,
            kind: head.kind,
            priority: head.priority,
            model_reentry: cls.model_reentry,
            reason: cls.reason,
          }
        : null,
  };
}

function candidateLists(state: AgentState): Record<CandidateClass, string[]> {
  return Object.fromEntries(CLASSES.map((c) => [c, rankedCandidates(state, c).map((item) => item.id)])) as Record<
    CandidateClass,
    string[]
  >;
}

function waitingPlane(
  state: AgentState,
  now: string,
): Pick<SchedulerProjection, 'active_intents' | 'scheduled_timers' | 'active_tasks'> {
  return {
    active_intents: state.waiting_intents
      .values()
      .filter((i) => i.status === 'active')
      .sort(compareIntents)
      .map((i) => ({
        id: i.id,
        scope: i.scope,
        work_item_id: i.work_item_id,
        wake: i.wake,
        resource: i.resource,
        trigger_count: i.trigger_count,
        last_triggered_at: i.last_triggered_at,
      })),
    scheduled_timers: scheduledTimers(state).map((t) => ({
      id: t.id,
      fire_at: t.fire_at,
      work_item_id: t.work_item_id,
      intent_id: t.intent_id,
      due: compareInstants(t.fire_at, now) <= 0,
    })),
    active_tasks: state.tasks
      .values()
      .filter((t) => !isTerminalTaskStatus(t.status))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((t) => ({
        id: t.id,
        kind: t.kind,
        status: t.status,
        wait_policy: t.wait_policy,
        work_item_id: t.work_item_id,
      })),
  };
}

function countsOf(
  state: AgentState,
  candidates: Record<CandidateClass, string[]>,
  plane: ReturnType<typeof waitingPlane>,
): SchedulerProjection['counts'] {
  const items = state.work_items.values();
  const perClass = Object.fromEntries(CLASSES.map((c) => [c, candidates[c].length])) as Record<CandidateClass, number>;
  return {
    ...perClass,
    work_items: items.length,
    open: items.filter((i) => i.state === 'open').length,
    completed: items.filter((i) => i.state === 'completed').length,
    active_intents: plane.active_intents.length,
    triggered_intents: plane.active_intents.filter((i) => i.trigger_count > 0).length,
    scheduled_timers: plane.scheduled_timers.length,
    active_tasks: plane.active_tasks.length,
    emitted_tick_keys: state.emitted_tick_keys.keys().length,
    briefs: state.briefs.keys().length,
  };
}

/** What the scheduler sees, as one JSON value: counts, current item, candidate lists, waits, hint, posture, open turn. */
export function schedulerProjection(state: AgentState, now: string, inputs: ClosureInputs = {}): SchedulerProjection {
  const candidates = candidateLists(state);
  const plane = waitingPlane(state, now);
  const hint = state.pending_wake_hint;
  const replay = state.messages
    .values()
    .filter((m) => m.status === 'queued' || m.status === 'dequeued')
    .sort(compareQueuedMessages);
  return {
    agent_id: state.agent_id,
    posture: state.posture,
    version: state.version,
    turn_index: state.turn_index,
    current_work_item: currentItemProjection(state),
    open_turn: openTurnProjection(state, now),
    queue: queueProjection(state),
    replay_message_ids: replay.map((m) => m.id),
    counts: countsOf(state, candidates, plane),
    candidates,
    rechecks_due: recheckProjection(state, now),
    ...plane,
    pending_wake_hint: hint && {
      source: hint.source,
      reason: hint.reason,
      created_at: hint.created_at,
      intent_id: hint.intent_id,
      liveness_only: hint.body === null,
      idempotency_key: wakeHintKey(hint.source, hint.created_at),
    },
    last_decision: state.last_decision && { ...state.last_decision.decision, recorded_at: state.last_decision.at },
    ...closureProjection(state, inputs),
  };
}
