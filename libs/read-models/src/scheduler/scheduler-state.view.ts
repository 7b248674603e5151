import { type AgentState, nextDueAt, type SchedulerProjection, schedulerProjection } from '@app/domain';

/** The stored scheduler_state of one agent: the domain's projection as of `projected_at`, and when time alone next matters. */
export type SchedulerStateView = SchedulerProjection & {
  /** Agent stream revision the projection is of (decimal string). */
  revision: string;
  /** The `now` the projection was computed at (the event's recorded_at; time-derived flags such as `due` are as of it). */
  projected_at: string;
  next_due_at: string | null;
};

export function toSchedulerStateView(state: AgentState, revision: bigint, projectedAt: string): SchedulerStateView {
  return {
    ...schedulerProjection(state, projectedAt),
    revision: revision.toString(),
    projected_at: projectedAt,
    next_due_at: nextDueAt(state),
  };
}

/** The scheduler_state row: the view plus the columns operators and queries filter on. */
export function schedulerStateRow(view: SchedulerStateView): Record<string, unknown> {
  return {
    agent_id: view.agent_id,
    revision: view.revision,
    projected_at: view.projected_at,
    posture: view.posture,
    current_work_item_id: view.current_work_item?.id ?? null,
    open_turn_id: view.open_turn?.turn_id ?? null,
    queued_messages: view.queue.count,
    open_work_items: view.counts.open,
    active_intents: view.counts.active_intents,
    scheduled_timers: view.counts.scheduled_timers,
    next_due_at: view.next_due_at,
    view,
  };
}

export const SCHEDULER_STATE_COLUMNS = [
  'agent_id',
  'revision',
  'projected_at',
  'posture',
  'current_work_item_id',
  'open_turn_id',
  'queued_messages',
  'open_work_items',
  'active_intents',
  'scheduled_timers',
  'next_due_at',
  'view',
];
