import { changeRecord, putRecord } from '../agent/agent.records';
import type { AgentState } from '../agent/agent.state';
import type { TaskEvent } from './task.events';

export function evolveTask(state: AgentState, event: TaskEvent): AgentState {
  if (event.type === 'TaskCreated') {
    const { data } = event;
    return putRecord(state, 'tasks', data.task_id, {
      id: data.task_id,
      kind: data.kind,
      status: 'queued',
      wait_policy: data.wait_policy,
      work_item_id: data.work_item_id,
      summary: data.summary,
      detail: null,
      created_at: data.at,
      updated_at: data.at,
      expected_duration_ms: data.expected_duration_ms ?? null,
      lease_expires_at: data.lease_expires_at ?? null,
      last_heartbeat_at: null,
      interrupt_reason: null,
    });
  }
  if (event.type === 'TaskLeaseRenewed') {
    const { data } = event;
    return changeRecord(state, 'tasks', data.task_id, (task) => ({
      ...task,
      expected_duration_ms: data.expected_duration_ms,
      lease_expires_at: data.lease_expires_at,
      last_heartbeat_at: data.at,
    }));
  }
  const { data } = event;
  return changeRecord(state, 'tasks', data.task_id, (task) => ({
    ...task,
    status: data.status,
    detail: data.detail ?? task.detail,
    updated_at: data.at,
    interrupt_reason: event.type === 'TaskInterrupted' ? (event.data.reason ?? null) : null,
  }));
}
