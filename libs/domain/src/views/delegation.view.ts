import type { AgentState } from '../agent/agent.state';
import { type DelegationRecord, isTerminalDelegationState } from '../delegation/delegation.state';
import { compareInstants } from '../shared/time';
import { addMs } from '../timer/timer.time';

/**
 * Why a delegation is flagged: its counterpart event is missing after the setting's delay.
 * `counterpart_missing`: the other stream has no record of it (a spawn interrupted between its
 * two appends); `completion_missing`: one side ended it and the other has not recorded the end.
 */
export type DelegationFlag = 'counterpart_missing' | 'completion_missing';

/**
 * One delegation as `GET /v1/agents/{a}/delegations` shows it: `direction` `child` for the
 * children this agent delegated to, `parent` for the parent it works for. `state`,
 * `child_work_item_id` and `result_summary` merge both sides (the further along wins);
 * `counterpart_state` is the other stream's own state (null when it has no record).
 */
export type DelegationView = {
  delegation_id: string;
  direction: 'child' | 'parent';
  parent_agent_id: string;
  parent_work_item_id: string;
  child_agent_id: string;
  child_work_item_id: string | null;
  state: DelegationRecord['state'];
  counterpart_state: DelegationRecord['state'] | null;
  result_summary: string | null;
  reason: string | null;
  label: string;
  task_id: string;
  delegated_at: string;
  ended_at: string | null;
  flagged: boolean;
  flag: DelegationFlag | null;
};

/** Terminal records win, then a bound child item. */
function furthest(own: DelegationRecord, other: DelegationRecord | null): DelegationRecord {
  if (other === null || isTerminalDelegationState(own.state)) return own;
  if (isTerminalDelegationState(other.state) || own.state === 'delegated') return other;
  return own;
}

/**
 * The flag (pure; `now` is the reader's clock, `flagAfterMs` the setting): a record whose
 * counterpart is missing, or ended on one side only, for longer than the delay.
 */
export function delegationFlag(
  own: DelegationRecord,
  other: DelegationRecord | null,
  now: string,
  flagAfterMs: number,
): DelegationFlag | null {
  const overdue = (since: string | null) => since !== null && compareInstants(addMs(since, flagAfterMs), now) <= 0;
  if (other === null) return overdue(own.delegated_at) ? 'counterpart_missing' : null;
  const ownEnded = isTerminalDelegationState(own.state);
  const otherEnded = isTerminalDelegationState(other.state);
  if (ownEnded === otherEnded) return null;
  return overdue(ownEnded ? own.ended_at : other.ended_at) ? 'completion_missing' : null;
}

export function toDelegationView(
  own: DelegationRecord,
  other: DelegationRecord | null,
  now: string,
  flagAfterMs: number,
): DelegationView {
  const merged = furthest(own, other);
  const flag = delegationFlag(own, other, now, flagAfterMs);
  return {
    delegation_id: own.delegation_id,
    direction: own.role === 'parent' ? 'child' : 'parent',
    parent_agent_id: own.parent_agent_id,
    parent_work_item_id: own.parent_work_item_id,
    child_agent_id: own.child_agent_id,
    child_work_item_id: own.child_work_item_id ?? other?.child_work_item_id ?? null,
    state: merged.state,
    counterpart_state: other?.state ?? null,
    result_summary: merged.result_summary,
    reason: merged.reason,
    label: own.label,
    task_id: own.task_id,
    delegated_at: own.delegated_at,
    ended_at: merged.ended_at,
    flagged: flag !== null,
    flag,
  };
}

/** The agents on the other side of this agent's delegations (their streams hold the counterparts). */
export function delegationCounterparts(state: AgentState): string[] {
  const ids = state.delegations.values().map((r) => (r.role === 'parent' ? r.child_agent_id : r.parent_agent_id));
  return [...new Set(ids)];
}

/**
 * Both directions, oldest first: `counterparts` maps an agent id to its state (absent: not
 * registered). Children this agent delegated to and the parent it works for.
 */
export function listDelegations(
  state: AgentState,
  counterparts: ReadonlyMap<string, AgentState>,
  now: string,
  flagAfterMs: number,
): DelegationView[] {
  return state.delegations
    .values()
    .sort((a, b) => compareInstants(a.delegated_at, b.delegated_at) || (a.delegation_id < b.delegation_id ? -1 : 1))
    .map((own) => {
      const otherId = own.role === 'parent' ? own.child_agent_id : own.parent_agent_id;
      const other = counterparts.get(otherId)?.delegations.get(own.delegation_id) ?? null;
      return toDelegationView(own, other, now, flagAfterMs);
    });
}
