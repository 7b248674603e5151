import type { AgentEvent } from '../agent/agent.events';
import { requireRecord, requireRegistered } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { requirePresent, requireValidId } from '../shared/validation';
import { intentTriggered } from '../waiting-intent/waiting-intent.builders';
import { isOverdue, leaseFields, optionalExpectedDuration } from './task-lease';
import { intentsAwaitingTask, taskResultMessage } from './task-result';
import type { ExpireTaskLease, TaskHeartbeat } from './task.commands';
import { statusChanged } from './task.decide';
import type { TaskInterrupted, TaskLeaseRenewed } from './task.events';
import { isTerminalTaskStatus, type TaskRecord } from './task.state';

// Task leases (docs/domain-contract.md §3 Tasks): an executor that stops heartbeating loses its task.

/** TaskHeartbeat: the lease runs again from now. A terminal task is refused (`task_already_terminal`). */
export function decideTaskHeartbeat(command: TaskHeartbeat, state: AgentState): TaskLeaseRenewed[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const task = requireRecord(state.tasks, requireValidId(command.data.task_id, 'task_id'), 'task');
  requireActive(task, 'heartbeat');
  const expected =
    optionalExpectedDuration(command.data.expected_duration_ms) ??
    requirePresent(task.expected_duration_ms, 'expected_duration_ms', 'required_without_lease');
  return [
    {
      type: 'TaskLeaseRenewed',
      data: { agent_id: agentId, task_id: task.id, ...leaseFields(expected, now), at: now },
    },
  ];
}

function requireActive(task: TaskRecord, action: string): void {
  if (!isTerminalTaskStatus(task.status)) return;
  throw new DomainError(
    'invariant_violated',
    { rule: 'task_already_terminal', task_id: task.id, status: task.status, action },
    `task ${task.id} is ${task.status}`,
  );
}

/**
 * ExpireTaskLease (the scheduler, once the lease has lapsed): [TaskInterrupted{reason: lease_expired},
 * its task_result waits triggered (they stay active: the executor may still deliver), the
 * task_result message queued]. An unexpired or terminal task records nothing.
 */
export function decideExpireTaskLease(command: ExpireTaskLease, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const task = requireRecord(state.tasks, requireValidId(command.data.task_id, 'task_id'), 'task');
  if (!isOverdue(task, now)) return [];
  const interrupted = { ...statusChanged(agentId, task, 'interrupted', null, now) } as TaskInterrupted;
  interrupted.data = { ...interrupted.data, reason: 'lease_expired' };
  const waits = intentsAwaitingTask(state, task.id);
  const provenance = {
    source: 'task_lease',
    event_id: task.id,
    via: 'timer' as const,
    actor: null,
    has_payload: false,
  };
  return [
    interrupted,
    ...waits.map((intent) => intentTriggered(agentId, intent, provenance, now)),
    taskResultMessage(
      state,
      agentId,
      task,
      { status: 'interrupted', detail: 'lease_expired', message_id: command.data.message_id },
      waits,
      now,
    ),
  ];
}
