import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { schedulingIndexOf } from '../agent/scheduling-index.upkeep';
import type { AgentState, WaitingIntentRecord } from '../agent/agent.state';
import type { CommandMeta } from '../shared/command-meta';
import { RecordMap } from '../shared/record-map';
import type { PlanArtifact, PlanStatus, TodoItem } from '../work-item/work-item.state';

// Builders for specs: a readable stream in one line per fact.

export const AGENT = 'agent-1';
export const T0 = '2026-01-01T00:00:00Z';

/** `at(5)` is five minutes after T0. */
export function at(minutes: number): string {
  const base = Date.parse(T0) + minutes * 60_000;
  return new Date(base).toISOString().replace('.000Z', 'Z');
}

export const meta = (now = at(60), command_id = 'cmd-1'): CommandMeta => ({ now, command_id });

/** A plan descriptor; `path` in `overrides` stands for an older writer's absolute path (deciders drop it). */
export function artifact(
  workItemId: string,
  hash = 'sha256:aaa',
  overrides: Partial<PlanArtifact> & { path?: string } = {},
): PlanArtifact {
  return {
    relative_path: `work-items/${workItemId}/plan.md`,
    hash,
    byte_size: 0,
    updated_at: T0,
    preview: '',
    preview_complete: true,
    ...overrides,
  };
}

export const registered = (time = T0): AgentEvent => ({ type: 'AgentRegistered', data: { agent_id: AGENT, at: time } });

type CreatedOptions = { at?: string; plan_status?: PlanStatus; todo_list?: TodoItem[]; objective?: string };

export function created(id: string, options: CreatedOptions = {}): AgentEvent {
  return {
    type: 'WorkItemCreated',
    data: {
      agent_id: AGENT,
      work_item_id: id,
      objective: options.objective ?? `objective of ${id}`,
      plan_status: options.plan_status ?? 'draft',
      todo_list: options.todo_list ?? [],
      plan_artifact: artifact(id),
      revision: 1,
      at: options.at ?? T0,
    },
  };
}

type UpdateFields = Omit<Extract<AgentEvent, { type: 'WorkItemUpdated' }>['data'], 'agent_id' | 'work_item_id' | 'at'>;

export function updated(id: string, fields: UpdateFields, time = at(1)): AgentEvent {
  return { type: 'WorkItemUpdated', data: { agent_id: AGENT, work_item_id: id, ...fields, at: time } };
}

export function picked(id: string, previous: string | null = null, time = at(2)): AgentEvent {
  return {
    type: 'WorkItemPicked',
    data: {
      agent_id: AGENT,
      work_item_id: id,
      previous_work_item_id: previous,
      current_work_item_id: id,
      reason: null,
      previous_readiness: null,
      current_readiness: 'runnable',
      switch_kind: 'explicit_focus_pick',
      current_focus_mode: 'runnable',
      reason_required: false,
      reason_missing: true,
      warnings: [],
      at: time,
    },
  };
}

export function completed(id: string, revision: number, time = at(3)): AgentEvent {
  return {
    type: 'WorkItemCompleted',
    data: {
      agent_id: AGENT,
      work_item_id: id,
      round_id: null,
      completed_with_unfinished_todos: false,
      unfinished_todo_count: 0,
      pending_todo_count: 0,
      in_progress_todo_count: 0,
      revision,
      at: time,
    },
  };
}

export const todo = (text: string, state: TodoItem['state'] = 'pending'): TodoItem => ({ text, state });

/** A waiting intent record, as the waiting-plane slice will store it. */
export function intent(
  id: string,
  workItemId: string | null,
  overrides: Partial<WaitingIntentRecord> = {},
): WaitingIntentRecord {
  return {
    id,
    scope: workItemId === null ? 'agent' : 'work_item',
    work_item_id: workItemId,
    wake: 'external',
    reason: 'waiting',
    source: null,
    resource: null,
    condition: null,
    fire_at: null,
    delivery_mode: 'wake_hint',
    status: 'active',
    trigger_count: 0,
    last_triggered_at: null,
    callback_token_hash: 'hash',
    created_at: T0,
    updated_at: T0,
    timer_id: null,
    last_trigger: null,
    event_ids: [],
    ended_at: null,
    end_reason: null,
    ...overrides,
  };
}

/** Folds events, then places waiting intents directly (for view specs that need exact records). */
export function stateOf(events: AgentEvent[], intents: WaitingIntentRecord[] = []): AgentState {
  const state = replay(events);
  const placed = { ...state, waiting_intents: RecordMap.from(intents.map((i) => [i.id, i] as const)) };
  return { ...placed, scheduling_index: schedulingIndexOf(placed) };
}

/** Command builders with default meta. */
export const cmd = {
  register: (agent_id = AGENT): AgentCommand => ({ type: 'RegisterAgent', data: { agent_id }, meta: meta() }),
  create: (
    id: string,
    data: Partial<Extract<AgentCommand, { type: 'CreateWorkItem' }>['data']> = {},
  ): AgentCommand => ({
    type: 'CreateWorkItem',
    data: { work_item_id: id, objective: `objective of ${id}`, plan_artifact: artifact(id), ...data },
    meta: meta(),
  }),
  update: (
    id: string,
    data: Omit<Extract<AgentCommand, { type: 'UpdateWorkItem' }>['data'], 'work_item_id'> = {},
  ): AgentCommand => ({
    type: 'UpdateWorkItem',
    data: { work_item_id: id, ...data },
    meta: meta(),
  }),
  pick: (id: string, reason?: string): AgentCommand => ({
    type: 'PickWorkItem',
    data: { work_item_id: id, ...(reason !== undefined && { reason }) },
    meta: meta(),
  }),
  complete: (id: string, round_id?: string): AgentCommand => ({
    type: 'CompleteWorkItem',
    data: { work_item_id: id, ...(round_id !== undefined && { round_id }) },
    meta: meta(),
  }),
};

export const NOW = meta().now;
