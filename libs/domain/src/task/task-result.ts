import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import { requireNewMessageId } from '../queue/message.validation';
import type { MessageQueued } from '../queue/queue.events';
import { runtimeMessageQueued } from '../queue/queue.messages';
import { activeIntents } from '../views/scheduling';
import type { WaitingIntentResolved } from '../waiting-intent/waiting-intent.events';
import type { WaitingIntentRecord } from '../waiting-intent/waiting-intent.state';
import type { WorkItemUpdated } from '../work-item/work-item.events';
import type { TaskRecord, TerminalTaskStatus } from './task.state';

export type TaskResult = { status: TerminalTaskStatus; detail: string | null; message_id: string | null };

/** Active `task_result` intents (either scope) waiting for this task, oldest first. */
export function intentsAwaitingTask(state: AgentState, taskId: string): WaitingIntentRecord[] {
  return activeIntents(state).filter((intent) => intent.wake === 'task_result' && intent.resource === taskId);
}

function resolved(
  agentId: string,
  intent: WaitingIntentRecord,
  task: TaskRecord,
  result: TaskResult,
  at: string,
): WaitingIntentResolved {
  return {
    type: 'WaitingIntentResolved',
    data: {
      agent_id: agentId,
      intent_id: intent.id,
      work_item_id: intent.work_item_id,
      task_id: task.id,
      task_status: result.status,
      at,
    },
  };
}

/**
 * The only blocker the runtime clears: the item's `blocked_by` still says exactly what the
 * resolved intent waited for. Clearing it also clears a leftover recheck_at (as UpdateWorkItem does).
 */
export function blockersCleared(
  state: AgentState,
  agentId: string,
  intents: WaitingIntentRecord[],
  at: string,
): WorkItemUpdated[] {
  const cleared = new Map<string, WorkItemUpdated>();
  for (const intent of intents) {
    const item = intent.work_item_id === null ? undefined : state.work_items.get(intent.work_item_id);
    if (item?.state !== 'open' || item.blocked_by !== intent.reason || cleared.has(item.id)) continue;
    cleared.set(item.id, {
      type: 'WorkItemUpdated',
      data: {
        agent_id: agentId,
        work_item_id: item.id,
        blocked_by: null,
        ...(item.recheck_at !== null && { recheck_at: null }),
        revision: item.revision + 1,
        at,
      },
    });
  }
  return [...cleared.values()];
}

export function taskResultMessage(
  state: AgentState,
  agentId: string,
  task: TaskRecord,
  result: TaskResult,
  intents: WaitingIntentRecord[],
  at: string,
): MessageQueued {
  const workItemId = task.work_item_id ?? intents.find((intent) => intent.work_item_id !== null)?.work_item_id ?? null;
  return runtimeMessageQueued(
    agentId,
    {
      message_id: requireNewMessageId(state, result.message_id),
      kind: 'task_result',
      origin: 'task',
      body: {
        task_id: task.id,
        task_kind: task.kind,
        status: result.status,
        detail: result.detail ?? task.detail,
        summary: task.summary,
      },
      work_item_id: workItemId,
      task_id: task.id,
      causation_id: task.id,
    },
    at,
  );
}

/** What a terminal status brings, after the task's own event: intents resolved, blockers cleared, task_result queued. */
export function taskResultEvents(
  state: AgentState,
  agentId: string,
  task: TaskRecord,
  result: TaskResult,
  at: string,
): AgentEvent[] {
  const intents = intentsAwaitingTask(state, task.id);
  return [
    ...intents.map((intent) => resolved(agentId, intent, task, result, at)),
    ...blockersCleared(state, agentId, intents, at),
    taskResultMessage(state, agentId, task, result, intents, at),
  ];
}
