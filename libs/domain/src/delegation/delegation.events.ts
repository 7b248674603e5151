import { eventGuard } from '../shared/event-guard';
import type { TerminalDelegationState, WorkspaceMode } from './delegation.state';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

/** Parent's stream: the delegating item handed to a private child (with its supervised task). */
export type WorkItemDelegated = {
  type: 'WorkItemDelegated';
  data: {
    agent_id: string;
    delegation_id: string;
    parent_work_item_id: string;
    child_agent_id: string;
    task_id: string;
    label: string;
    /** What the child's creation needs, so the hand-off can finish a spawn a crash interrupted. */
    initial_message: string;
    message_id: string;
    preset: string | null;
    template: string | null;
    at: string;
  };
};

/** Parent's stream: the delegation ended (its child task turns terminal in the same append). */
export type WorkItemDelegationCompleted = {
  type: 'WorkItemDelegationCompleted';
  data: {
    agent_id: string;
    delegation_id: string;
    child_agent_id: string;
    parent_work_item_id: string;
    child_work_item_id: string | null;
    state: TerminalDelegationState;
    result_summary: string | null;
    reason: string | null;
    at: string;
  };
};

/** Child's stream, after AgentRegistered: who spawned it, how, and the host's opaque strings. */
export type AgentSpawned = {
  type: 'AgentSpawned';
  data: {
    agent_id: string;
    parent_agent_id: string;
    workspace_mode: WorkspaceMode;
    preset: string | null;
    template: string | null;
    at: string;
  };
};

/** Child's stream: the matching fact of WorkItemDelegated (its message follows). */
export type WorkItemDelegationReceived = {
  type: 'WorkItemDelegationReceived';
  data: {
    agent_id: string;
    delegation_id: string;
    parent_agent_id: string;
    parent_work_item_id: string;
    label: string;
    message_id: string;
    at: string;
  };
};

/** Child's stream: the matching fact of WorkItemDelegationCompleted, recorded first. */
export type WorkItemDelegationReported = {
  type: 'WorkItemDelegationReported';
  data: {
    agent_id: string;
    delegation_id: string;
    parent_agent_id: string;
    child_work_item_id: string | null;
    state: TerminalDelegationState;
    result_summary: string | null;
    reason: string | null;
    at: string;
  };
};

export type DelegationEvent =
  | WorkItemDelegated
  | WorkItemDelegationCompleted
  | AgentSpawned
  | WorkItemDelegationReceived
  | WorkItemDelegationReported;

export const isDelegationEvent = eventGuard<DelegationEvent>([
  'WorkItemDelegated',
  'WorkItemDelegationCompleted',
  'AgentSpawned',
  'WorkItemDelegationReceived',
  'WorkItemDelegationReported',
]);
