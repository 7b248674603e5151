import type { SchedulerStateReply } from '@app/application';
import type * as Rpc from '@app/contracts';
import { absentIfNull } from './grpc-replies';
import { toDecision } from './grpc-turn-replies';

type State = SchedulerStateReply;

/** The parts of the state with nullable fields: null -> absent, as everywhere on this edge. */
function waitingParts(state: State): Pick<Rpc.SchedulerStateMessage, 'active_intents' | 'scheduled_timers' | 'active_tasks' | 'pending_wake_hint'> {
  const hint = state.pending_wake_hint;
  return {
    active_intents: state.active_intents.map((i) => ({ ...i, work_item_id: absentIfNull(i.work_item_id), resource: absentIfNull(i.resource), last_triggered_at: absentIfNull(i.last_triggered_at) })),
    scheduled_timers: state.scheduled_timers.map((t) => ({ ...t, work_item_id: absentIfNull(t.work_item_id), intent_id: absentIfNull(t.intent_id) })),
    active_tasks: state.active_tasks.map((t) => ({ ...t, work_item_id: absentIfNull(t.work_item_id) })),
    pending_wake_hint: hint === null ? undefined : { ...hint, intent_id: absentIfNull(hint.intent_id) },
  };
}

function turnParts(state: State): Pick<Rpc.SchedulerStateMessage, 'current_work_item' | 'open_turn' | 'queue'> {
  const turn = state.open_turn;
  return {
    current_work_item: absentIfNull(state.current_work_item),
    open_turn: turn === null ? undefined : { ...turn, work_item_id: absentIfNull(turn.work_item_id), open_round_id: absentIfNull(turn.open_round_id) },
    queue: { count: state.queue.count, by_priority: { ...state.queue.by_priority }, head: absentIfNull(state.queue.head) },
  };
}

/** GetState. HTTP's `candidates` ({class: [ids]}) becomes a map of `{ids}` (proto maps hold no repeated values). */
export function toSchedulerState(state: State): Rpc.SchedulerStateMessage {
  return {
    agent_id: state.agent_id ?? '', posture: state.posture, version: state.version, turn_index: state.turn_index,
    ...turnParts(state), ...waitingParts(state),
    replay_message_ids: [...state.replay_message_ids], counts: { ...state.counts },
    candidates: Object.fromEntries(Object.entries(state.candidates).map(([cls, ids]) => [cls, { ids: [...ids] }])),
    rechecks_due: state.rechecks_due.map((r) => ({ ...r })),
    last_decision: state.last_decision === null ? undefined : toDecision(state.last_decision),
    revision: state.revision, projected_at: state.projected_at, next_due_at: absentIfNull(state.next_due_at),
    next_decision: toDecision(state.next_decision),
    projection_lag: { checkpoint: state.projection_lag.checkpoint, head: absentIfNull(state.projection_lag.head), caught_up: state.projection_lag.caught_up },
  };
}
