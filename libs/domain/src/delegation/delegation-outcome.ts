import type { AgentEvent } from '../agent/agent.events';
import { requireRecord, requireRegistered } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { decideNextAction } from '../scheduler/decide-next-action';
import type { DecisionKind } from '../scheduler/decision';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { optionalTrimmedText, optionalValidId, requireOneOf, requireValidId } from '../shared/validation';
import { statusChanged } from '../task/task.decide';
import { taskResultEvents } from '../task/task-result';
import { isTerminalTaskStatus, type TerminalTaskStatus } from '../task/task.state';
import type { CompleteDelegation, ReportDelegation } from './delegation.commands';
import type { WorkItemDelegationCompleted, WorkItemDelegationReported } from './delegation.events';
import {
  type DelegationRecord,
  isTerminalDelegationState,
  TERMINAL_DELEGATION_STATES,
  type TerminalDelegationState,
} from './delegation.state';

export type DelegationOutcome = {
  state: TerminalDelegationState;
  result_summary: string | null;
  reason: string | null;
};

/** Why a delegation ended without a result. */
export const CHILD_STOPPED = 'child_stopped';
export const CHILD_TURN_FAILED = 'child_turn_failed';

/** Decisions that still run something: a failed turn followed by one of these has not ended the work. */
const STILL_RUNNING: readonly DecisionKind[] = ['StartModelTurn', 'ReduceMessageOnly', 'EmitSystemTick'];

/**
 * How the child's delegated work ended, from the child's own state, or null while it has not
 * (docs/domain-contract.md §11), first rule that holds:
 * 1. the delegated item (`child_work_item_id`) is completed and its report is promoted, or no
 *    turn is open any more (no report will come): `completed` with the report as result_summary;
 * 2. the child is stopped: `cancelled` (`child_stopped`);
 * 3. its newest turn ended `failed` on the delegated item (bound to it, or serving the delegation
 *    message) and the scheduler has nothing left to run: `failed` (`child_turn_failed`).
 */
export function delegationOutcome(state: AgentState, record: DelegationRecord, now: string): DelegationOutcome | null {
  if (record.role !== 'child' || isTerminalDelegationState(record.state)) return null;
  const item = state.work_items.get(record.child_work_item_id);
  if (item?.state === 'completed' && (item.result_summary !== null || state.open_turn_id === null))
    return { state: 'completed', result_summary: item.result_summary, reason: null };
  if (state.posture === 'stopped') return { state: 'cancelled', result_summary: null, reason: CHILD_STOPPED };
  if (state.open_turn_id !== null) return null;
  const turns = state.turns.values();
  const newest = turns[turns.length - 1];
  if (newest?.terminal?.terminal_kind !== 'failed') return null;
  const onItem =
    newest.message_id === record.message_id ||
    (record.child_work_item_id !== null && newest.work_item_id === record.child_work_item_id);
  if (!onItem || STILL_RUNNING.includes(decideNextAction(state, now).kind)) return null;
  return { state: 'failed', result_summary: null, reason: CHILD_TURN_FAILED };
}

/** ReportDelegation (child): [WorkItemDelegationReported] once the outcome holds; [] before, and once reported. */
export function decideReportDelegation(command: ReportDelegation, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const record = requireRecord(
    state.delegations,
    requireValidId(command.data.delegation_id, 'delegation_id'),
    'delegation',
  );
  const outcome = delegationOutcome(state, record, now);
  if (outcome === null) return [];
  const reported: WorkItemDelegationReported = {
    type: 'WorkItemDelegationReported',
    data: {
      agent_id: agentId,
      delegation_id: record.delegation_id,
      parent_agent_id: record.parent_agent_id,
      child_work_item_id: record.child_work_item_id,
      ...outcome,
      at: now,
    },
  };
  return [reported];
}

const TASK_STATUS_OF: Record<TerminalDelegationState, TerminalTaskStatus> = {
  completed: 'completed',
  cancelled: 'cancelled',
  failed: 'failed',
};

/**
 * CompleteDelegation (parent): [WorkItemDelegationCompleted, the child task's terminal status,
 * intents resolved, blockers cleared, task_result queued on the record's parent item]. A
 * delegation already ended records nothing; a child task already terminal (the parent cancelled
 * it) is left as it is and queues no second result.
 */
export function decideCompleteDelegation(command: CompleteDelegation, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const { data } = command;
  const record = requireRecord(state.delegations, requireValidId(data.delegation_id, 'delegation_id'), 'delegation');
  if (record.role !== 'parent')
    throw new DomainError('invariant_violated', { rule: 'not_the_parent', delegation_id: record.delegation_id });
  const outcome = requireOneOf(data.state, 'state', TERMINAL_DELEGATION_STATES);
  const summary = optionalTrimmedText(data.result_summary, 'result_summary', {
    min: 0,
    max: 100_000,
    shape: 'content',
  });
  const reason = optionalTrimmedText(data.reason, 'reason', { min: 1, max: 200 });
  const childItem = optionalValidId(data.child_work_item_id, 'child_work_item_id');
  const messageId = requireValidId(data.message_id, 'message_id');
  if (isTerminalDelegationState(record.state)) return [];
  const completed: WorkItemDelegationCompleted = {
    type: 'WorkItemDelegationCompleted',
    data: {
      agent_id: agentId,
      delegation_id: record.delegation_id,
      child_agent_id: record.child_agent_id,
      parent_work_item_id: record.parent_work_item_id,
      child_work_item_id: childItem,
      state: outcome,
      result_summary: summary,
      reason,
      at: now,
    },
  };
  const task = state.tasks.get(record.task_id);
  if (task === undefined || isTerminalTaskStatus(task.status)) return [completed];
  const status = TASK_STATUS_OF[outcome];
  const detail = summary ?? (reason === null ? null : `delegation ${outcome}: ${reason}`);
  // The result names the record's parent item: the task was created on it (task.work_item_id).
  const onItem = { ...task, work_item_id: record.parent_work_item_id };
  return [
    completed,
    statusChanged(agentId, onItem, status, detail === '' ? null : detail, now),
    ...taskResultEvents(
      state,
      agentId,
      onItem,
      { status, detail: detail === '' ? null : detail, message_id: messageId },
      now,
    ),
  ];
}
