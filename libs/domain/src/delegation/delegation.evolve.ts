import type { AgentState } from '../agent/agent.state';
import type { WorkItemCreated } from '../work-item/work-item.events';
import type { DelegationEvent } from './delegation.events';
import type { DelegationRecord } from './delegation.state';

function put(state: AgentState, record: DelegationRecord): AgentState {
  return { ...state, delegations: state.delegations.set(record.delegation_id, record) };
}

function change(state: AgentState, id: string, patch: (record: DelegationRecord) => DelegationRecord): AgentState {
  const record = state.delegations.get(id);
  return record === undefined ? state : put(state, patch(record));
}

export function evolveDelegation(state: AgentState, event: DelegationEvent): AgentState {
  switch (event.type) {
    case 'WorkItemDelegated': {
      const { data } = event;
      return put(state, {
        delegation_id: data.delegation_id,
        role: 'parent',
        parent_agent_id: data.agent_id,
        parent_work_item_id: data.parent_work_item_id,
        child_agent_id: data.child_agent_id,
        child_work_item_id: null,
        state: 'delegated',
        result_summary: null,
        reason: null,
        task_id: data.task_id,
        label: data.label,
        message_id: data.message_id,
        delegated_at: data.at,
        ended_at: null,
      });
    }
    // The parent's end and the child's matching fact close the record the same way on each side.
    case 'WorkItemDelegationCompleted':
    case 'WorkItemDelegationReported': {
      const { data } = event;
      return change(state, data.delegation_id, (record) => ({
        ...record,
        child_work_item_id: data.child_work_item_id ?? record.child_work_item_id,
        state: data.state,
        result_summary: data.result_summary,
        reason: data.reason,
        ended_at: data.at,
      }));
    }
    case 'AgentSpawned': {
      const { data } = event;
      const spawned = {
        parent_agent_id: data.parent_agent_id,
        workspace_mode: data.workspace_mode,
        preset: data.preset,
        template: data.template,
        delegation_id: null,
        at: data.at,
      };
      return { ...state, spawned };
    }
    case 'WorkItemDelegationReceived': {
      const { data } = event;
      const next = put(state, {
        delegation_id: data.delegation_id,
        role: 'child',
        parent_agent_id: data.parent_agent_id,
        parent_work_item_id: data.parent_work_item_id,
        child_agent_id: data.agent_id,
        child_work_item_id: null,
        state: 'delegated',
        result_summary: null,
        reason: null,
        task_id: data.delegation_id,
        label: data.label,
        message_id: data.message_id,
        delegated_at: data.at,
        ended_at: null,
      });
      return next.spawned === null
        ? next
        : { ...next, spawned: { ...next.spawned, delegation_id: data.delegation_id } };
    }
  }
}

/**
 * The child's first item created while it serves the delegation message (a turn on that message
 * is open) becomes the delegation's `child_work_item_id`: derived by the fold, no event of its own.
 */
export function observeChildItem(state: AgentState, event: WorkItemCreated): AgentState {
  if (state.delegations.size === 0 || state.open_turn_id === null) return state;
  const turn = state.turns.get(state.open_turn_id);
  if (turn === undefined) return state;
  const record = state.delegations
    .values()
    .find((r) => r.role === 'child' && r.message_id === turn.message_id && r.child_work_item_id === null);
  if (record === undefined || record.state !== 'delegated') return state;
  return put(state, { ...record, child_work_item_id: event.data.work_item_id, state: 'working' });
}
