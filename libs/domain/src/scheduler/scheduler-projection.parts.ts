import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import { type Readiness, readinessOf, type SchedulingState, schedulingStateOf } from '../views/scheduling';
import { continueActiveKey, recheckKey } from './tick-keys';
import { dueRechecks, isEmitted } from './work-queue.rungs';

export type CurrentItemProjection = {
  id: string;
  revision: number;
  readiness: Readiness;
  scheduling_state: SchedulingState;
  /** `work_queue:continue_active:<id>:<revision>` and whether it was emitted or consumed by a turn. */
  continue_active_key: string;
  continue_active_consumed: boolean;
} | null;

export function currentItemProjection(state: AgentState): CurrentItemProjection {
  const item = state.work_items.get(state.current_work_item_id);
  if (item === undefined) return null;
  const key = continueActiveKey(item.id, item.revision);
  return {
    id: item.id,
    revision: item.revision,
    readiness: readinessOf(state, item),
    scheduling_state: schedulingStateOf(state, item),
    continue_active_key: key,
    continue_active_consumed: isEmitted(state, key),
  };
}

export type OpenTurnProjection = {
  turn_id: string;
  turn_index: number;
  message_id: string;
  work_item_id: string | null;
  lease_expires_at: string;
  lease_expired: boolean;
  open_round_id: string | null;
} | null;

export function openTurnProjection(state: AgentState, now: string): OpenTurnProjection {
  const turn = state.turns.get(state.open_turn_id);
  if (turn === undefined) return null;
  return {
    turn_id: turn.turn_id,
    turn_index: turn.turn_index,
    message_id: turn.message_id,
    work_item_id: turn.work_item_id,
    lease_expires_at: turn.lease_expires_at,
    lease_expired: compareInstants(turn.lease_expires_at, now) <= 0,
    open_round_id: turn.open_round_id,
  };
}

export type RecheckProjection = {
  work_item_id: string;
  recheck_at: string;
  idempotency_key: string;
  consumed: boolean;
}[];

/** Blocked items whose recheck_at is due; `consumed` once their recheck tick was emitted (surfaced once). */
export function recheckProjection(state: AgentState, now: string): RecheckProjection {
  return dueRechecks(state, now).map((item) => {
    const key = recheckKey(item.id, item.recheck_at ?? '');
    return {
      work_item_id: item.id,
      recheck_at: item.recheck_at ?? '',
      idempotency_key: key,
      consumed: isEmitted(state, key),
    };
  });
}
