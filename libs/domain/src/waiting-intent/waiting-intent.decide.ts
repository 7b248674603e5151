import type { AgentEvent } from '../agent/agent.events';
import { requireAbsent, requireOpen, requireRecord, requireRegistered, requireWorkItem } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { releaseFocusIfCurrent } from '../focus/focus.decide';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { isTerminalTaskStatus } from '../task/task.state';
import { timerCreated } from '../timer/timer.builders';
import type { TimerCreated } from '../timer/timer.events';
import type { WorkItemUpdated } from '../work-item/work-item.events';
import type { OpenWorkItem } from '../work-item/work-item.state';
import { itemIntentCancellations } from './waiting-intent.builders';
import type { WaitFor } from './waiting-intent.commands';
import type { WaitingIntentCreated } from './waiting-intent.events';
import { validateWaitFor, type WaitForInput } from './waiting-intent.validation';

/** A task wait needs a task that can still end: unknown -> not_found, already terminal -> invariant_violated. */
function requireAwaitableTask(state: AgentState, taskId: string): void {
  const task = requireRecord(state.tasks, taskId, 'task');
  if (isTerminalTaskStatus(task.status)) {
    throw new DomainError(
      'invariant_violated',
      { rule: 'task_already_terminal', task_id: taskId, status: task.status },
      `task ${taskId} is already ${task.status}; its result is already queued`,
    );
  }
}

function intentCreated(agentId: string, input: WaitForInput, at: string): WaitingIntentCreated {
  const { intent_id, ...fields } = input;
  return { type: 'WaitingIntentCreated', data: { agent_id: agentId, intent_id, ...fields, at } };
}

/** A timer wait creates the one-shot timer that will trigger it; its tick resumes with the waiting text. */
function waitTimer(agentId: string, input: WaitForInput, at: string): TimerCreated[] {
  if (input.timer_id === null || input.fire_at === null) return [];
  return [
    timerCreated(
      agentId,
      {
        timer_id: input.timer_id,
        fire_at: input.fire_at,
        interval_ms: null,
        work_item_id: input.work_item_id,
        resume_text: input.reason,
        intent_id: input.intent_id,
      },
      at,
    ),
  ];
}

/** blocked_by = reason (revision + 1), unless it already says exactly that. */
function blockerSet(agentId: string, item: OpenWorkItem, reason: string, at: string): WorkItemUpdated[] {
  if (item.blocked_by === reason) return [];
  return [
    {
      type: 'WorkItemUpdated',
      data: { agent_id: agentId, work_item_id: item.id, blocked_by: reason, revision: item.revision + 1, at },
    },
  ];
}

/**
 * WaitFor. Work-item scope, on an open item: [previous intents cancelled (wait_for_replaced),
 * blocked_by = reason, focus released if focused, intent created, timer created (wake: timer)].
 * Agent scope: [intent created, timer created] only (no blocker, focus untouched).
 */
export function decideWaitFor(command: WaitFor, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const input = validateWaitFor(command.data);
  const item = input.work_item_id === null ? null : requireOpen(requireWorkItem(state, input.work_item_id), 'wait on');
  requireAbsent(state.waiting_intents, input.intent_id, 'waiting_intent');
  if (input.timer_id !== null) requireAbsent(state.timers, input.timer_id, 'timer');
  if (input.wake === 'task_result' && input.resource !== null) requireAwaitableTask(state, input.resource);
  const recorded = [intentCreated(agentId, input, now), ...waitTimer(agentId, input, now)];
  if (item === null) return recorded;
  return [
    ...itemIntentCancellations(state, item.id, 'wait_for_replaced', now),
    ...blockerSet(agentId, item, input.reason, now),
    ...releaseFocusIfCurrent(state, item.id, 'work_item_blocked', now),
    ...recorded,
  ];
}
