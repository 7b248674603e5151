import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import type { MessageBody } from '../queue/message.state';
import { messageQueued } from '../queue/queue.messages';
import { currentTodo } from '../views/todo';
import { wakeHintTickBody } from '../wake-hint/wake-hint.decide';
import type { WorkItem } from '../work-item/work-item.state';
import type { TickReason } from './decision';
import type { SystemTickEmitted } from './scheduler.events';
import { itemTriggerCount } from './work-queue.rungs';

/** What the tick asks of the model, in its body (the body says why; ticks never change the focus). */
function itemTickBody(state: AgentState, reason: TickReason, item: WorkItem): string {
  const todo = currentTodo(item.todo_list);
  const objective = `Objective: ${item.objective}.${todo ? ` Current todo: ${todo.text}.` : ''}`;
  const blocker = item.blocked_by === null ? '' : ` Blocked by: ${item.blocked_by}.`;
  switch (reason) {
    case 'continue_active':
      return `continue_active: work item ${item.id} is the current focus and runnable (revision ${item.revision}). ${objective} Continue it, or update, block or complete it.`;
    case 'triggered_review':
      return `triggered_review: blocked work item ${item.id} received ${itemTriggerCount(state, item.id)} trigger(s) on its waits. ${objective}${blocker} Re-evaluate it: a trigger never clears the blocker; clear blocked_by, keep waiting or complete it. This tick does not change the focus.`;
    case 'queued_available':
      return `queued_available: runnable work item ${item.id} is queued (revision ${item.revision}). ${objective} Pick it to work on it; this tick does not change the focus.`;
    default:
      return `work_item_recheck: blocked work item ${item.id} reached its recheck_at ${item.recheck_at ?? ''}. ${objective}${blocker} Re-evaluate whether it is still blocked.`;
  }
}

type TickInput = { reason: TickReason; idempotency_key: string; work_item_id: string | null; message_id: string };

function wakeHintTick(state: AgentState): {
  body: MessageBody;
  work_item_id: string | null;
  causation_id: string | null;
  liveness_only: boolean;
} {
  const hint = state.pending_wake_hint;
  if (hint === null) return { body: 'wake_hint', work_item_id: null, causation_id: null, liveness_only: true };
  const intent = state.waiting_intents.get(hint.intent_id);
  return {
    body: wakeHintTickBody(hint),
    work_item_id: intent?.work_item_id ?? null,
    causation_id: hint.intent_id,
    liveness_only: hint.body === null,
  };
}

/** SystemTickEmitted and its system_tick (priority next; a recheck is background). */
export function systemTickEvents(state: AgentState, agentId: string, tick: TickInput, at: string): AgentEvent[] {
  const emitted: SystemTickEmitted = {
    type: 'SystemTickEmitted',
    data: {
      agent_id: agentId,
      message_id: tick.message_id,
      reason: tick.reason,
      idempotency_key: tick.idempotency_key,
      work_item_id: tick.work_item_id,
      at,
    },
  };
  const common = {
    message_id: tick.message_id,
    kind: 'system_tick' as const,
    authority: 'runtime_instruction' as const,
    correlation_id: tick.idempotency_key,
    priority: tick.reason === 'work_item_recheck' ? ('background' as const) : ('next' as const),
  };
  if (tick.reason === 'wake_hint') {
    return [emitted, messageQueued(agentId, { ...common, origin: 'wake_hint', ...wakeHintTick(state) }, at)];
  }
  const item = state.work_items.get(tick.work_item_id);
  const body = item ? itemTickBody(state, tick.reason, item) : `${tick.reason}: work item ${tick.work_item_id ?? ''}`;
  return [
    emitted,
    messageQueued(agentId, { ...common, origin: 'scheduler', body, work_item_id: tick.work_item_id }, at),
  ];
}
