import type { AgentState } from '../agent/agent.state';
import type { MessageRecord } from '../queue/message.state';
import { activeIntentsFor, readinessOf } from '../views/scheduling';
import type { WaitingIntentRecord } from '../waiting-intent/waiting-intent.state';
import { valuesInObjectOrder } from '../shared/record-map';

/** Whether a queued message warrants re-entering the model (StartModelTurn) or only reduction (docs/domain-contract.md §5 rung 3). */
export type MessageClassification = {
  model_reentry: boolean;
  liveness_only: boolean;
  /** operator_input, timer_fire, internal_followup, scheduler_tick, contentful_external_event, task_result_for_focus, ... */
  reason: string;
  evidence: string[];
};

const reentry = (reason: string, evidence: string[] = []): MessageClassification => ({
  model_reentry: true,
  liveness_only: false,
  reason,
  evidence,
});
const livenessOnly = (reason: string, evidence: string[] = []): MessageClassification => ({
  model_reentry: false,
  liveness_only: true,
  reason,
  evidence,
});

/** The item-scoped `task_result` wait this task's terminal status resolved (the agent was waiting on it), if any. */
export function resolvedTaskWait(state: AgentState, message: MessageRecord): WaitingIntentRecord | undefined {
  if (message.kind !== 'task_result' || message.task_id === null) return undefined;
  return valuesInObjectOrder(state.waiting_intents).find(
    (intent) =>
      intent.wake === 'task_result' &&
      intent.resource === message.task_id &&
      intent.status === 'resolved' &&
      intent.end_reason === 'task_result',
  );
}

/**
 * Terminal task results re-enter for the focused item, for an agent-scoped wait on that task, or
 * when they resolved a task_result wait whatever the focus (issue 15 item 1: the agent waited for
 * it, so it must see it even if it rewrote its blocker since); otherwise they only reduce.
 */
function classifyTaskResult(state: AgentState, message: MessageRecord): MessageClassification {
  const evidence = [`task:${message.task_id ?? 'none'}`, `work_item:${message.work_item_id ?? 'none'}`];
  if (message.work_item_id !== null && message.work_item_id === state.current_work_item_id) {
    return reentry('task_result_for_focus', evidence);
  }
  const agentWait = valuesInObjectOrder(state.waiting_intents).find(
    (intent) =>
      intent.scope === 'agent' &&
      intent.wake === 'task_result' &&
      intent.resource === message.task_id &&
      message.task_id !== null,
  );
  if (agentWait) return reentry('task_result_for_agent_wait', [...evidence, `intent:${agentWait.id}`]);
  // A child agent's report always re-enters, on the parent item its delegation record names (§11).
  const delegation = message.task_id === null ? undefined : state.delegations.get(message.task_id);
  if (delegation?.role === 'parent')
    return reentry('task_result_for_delegation', [...evidence, `delegation:${delegation.delegation_id}`]);
  const resolved = resolvedTaskWait(state, message);
  if (resolved) return reentry('task_result_resolved_wait', [...evidence, `intent:${resolved.id}`]);
  return livenessOnly('task_result_not_for_focus', evidence);
}

/**
 * Issue 15 item 7: a continue_active / queued_available tick whose item no longer matches its key
 * (picked, blocked, completed or changed since it was emitted) is stale: liveness only. The
 * scheduler emits a fresh tick for the item's present state if it still warrants one.
 */
function staleTick(state: AgentState, message: MessageRecord): MessageClassification | null {
  const key = message.correlation_id ?? '';
  const match = /^work_queue:(continue_active|queued_available):(.+):(\d+)$/.exec(key);
  if (match === null) return null;
  const [, reason, itemId, revision] = match;
  const item = state.work_items.get(itemId);
  const focused = state.current_work_item_id === itemId;
  const runnable = item?.state === 'open' && readinessOf(state, item) === 'runnable';
  const matches =
    item !== undefined &&
    runnable &&
    item.revision === Number(revision) &&
    (reason === 'continue_active' ? focused : !focused);
  if (matches) return null;
  const now =
    item === undefined
      ? 'unknown'
      : `${item.state}:${runnable ? 'runnable' : 'not_runnable'}:revision_${item.revision}${focused ? ':focus' : ''}`;
  return livenessOnly('stale_tick', ['stale_tick', `tick_key:${key}`, `work_item_now:${now}`]);
}

/**
 * A contentful external event (or hint tick) bound to an item that waits on something else
 * (none of its active intents is external, and it is not the delivery of one of them) is a
 * mismatched trigger: liveness only, it never satisfies an unrelated wait.
 */
function classifyExternal(state: AgentState, message: MessageRecord, reason: string): MessageClassification {
  const item = state.work_items.get(message.work_item_id);
  if (item === undefined || item.state !== 'open') return reentry(reason);
  const intents = activeIntentsFor(state, item.id);
  const matches =
    intents.length === 0 || intents.some((intent) => intent.wake === 'external' || intent.id === message.causation_id);
  if (matches) return reentry(reason, [`work_item:${item.id}`]);
  const waits = [...new Set(intents.map((intent) => intent.wake))].sort();
  return livenessOnly('mismatched_trigger', [`work_item:${item.id}`, ...waits.map((wake) => `waiting_on:${wake}`)]);
}

/** The model re-entry classification of one message, from the state it would be handled in. */
export function classifyMessage(state: AgentState, message: MessageRecord): MessageClassification {
  switch (message.kind) {
    case 'operator_prompt':
      return reentry('operator_input');
    case 'timer_tick':
      return reentry('timer_fire');
    case 'internal_followup':
      return reentry('internal_followup');
    case 'control':
      return livenessOnly('control_plane');
    case 'task_result':
      return classifyTaskResult(state, message);
    default:
      if (message.liveness_only) return livenessOnly('liveness_only_tick');
      if (message.kind === 'system_tick' && message.origin === 'scheduler')
        return staleTick(state, message) ?? reentry('scheduler_tick');
      return classifyExternal(
        state,
        message,
        message.kind === 'system_tick' ? 'contentful_tick' : 'contentful_external_event',
      );
  }
}
