import type { AgentEvent } from '../agent/agent.events';
import { requireNotStopped, requireOpen, requireRegistered, requireWorkItem } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { messageQueued } from '../queue/queue.messages';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { assertValidId } from '../shared/ids';
import { requireTrimmedText } from '../shared/text';
import { optionalTrimmedText, optionalValidId, requireOneOf, requireValidId } from '../shared/validation';
import type { TaskCreated } from '../task/task.events';
import type { AcceptSpawn, DelegateWorkItem } from './delegation.commands';
import type { AgentSpawned, WorkItemDelegated, WorkItemDelegationReceived } from './delegation.events';
import { CHILD_AGENT_TASK_KIND, delegationLabel, WORKSPACE_MODES } from './delegation.state';

export const INITIAL_MESSAGE_MAX_LENGTH = 100_000;
export const HOST_STRING_MAX_LENGTH = 200;

/** The origin of a delegation message in the child's queue. */
export const DELEGATION_ORIGIN = 'delegation';

/**
 * The delegating item: the one named, else the focus. None: refused with the wire code
 * `work_item_required` (400), naming the field. It must be open.
 */
function delegatingItem(state: AgentState, requested: string | null): string {
  const id = requested ?? state.current_work_item_id;
  if (id === null)
    throw new DomainError(
      'work_item_required',
      { field: 'work_item_id', rule: 'no_focus' },
      'the parent has no focus: name the delegating item in work_item_id',
    );
  return requireOpen(requireWorkItem(state, id), 'delegate').id;
}

/**
 * DelegateWorkItem (the parent's half of SpawnAgent private_child): [WorkItemDelegated,
 * TaskCreated (kind child_agent, background, on the delegating item, summary = label)].
 * Delegating never blocks the item by itself.
 */
export function decideDelegateWorkItem(command: DelegateWorkItem, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const { data } = command;
  const delegationId = requireValidId(data.delegation_id, 'delegation_id');
  const childId = requireValidId(data.child_agent_id, 'agent_id');
  const messageId = requireValidId(data.message_id, 'message_id');
  const initial = requireTrimmedText(data.initial_message, 'initial_message', {
    min: 1,
    max: INITIAL_MESSAGE_MAX_LENGTH,
    shape: 'content',
  });
  const preset = optionalTrimmedText(data.preset, 'preset', { min: 1, max: HOST_STRING_MAX_LENGTH });
  const template = optionalTrimmedText(data.template, 'template', { min: 1, max: HOST_STRING_MAX_LENGTH });
  const itemId = delegatingItem(state, optionalValidId(data.work_item_id, 'work_item_id'));
  if (childId === agentId) throw new DomainError('validation_failed', { field: 'agent_id', rule: 'is_the_parent' });
  requireNotStopped(state, 'spawn a child agent');
  if (state.delegations.has(delegationId) || state.tasks.has(delegationId))
    throw new DomainError('already_exists', { resource: 'delegation', delegation_id: delegationId });
  const label = delegationLabel(initial);
  const delegated: WorkItemDelegated = {
    type: 'WorkItemDelegated',
    data: {
      agent_id: agentId,
      delegation_id: delegationId,
      parent_work_item_id: itemId,
      child_agent_id: childId,
      task_id: delegationId,
      label,
      initial_message: initial,
      message_id: messageId,
      preset,
      template,
      at: now,
    },
  };
  const task: TaskCreated = {
    type: 'TaskCreated',
    data: {
      agent_id: agentId,
      task_id: delegationId,
      kind: CHILD_AGENT_TASK_KIND,
      wait_policy: 'background',
      work_item_id: itemId,
      summary: label,
      status: 'queued',
      at: now,
    },
  };
  return [delegated, task];
}

/**
 * AcceptSpawn (the child's half): [AgentRegistered, AgentSpawned, WorkItemDelegationReceived?,
 * MessageQueued?]. The spawn never creates or picks a work item in the child. A child already
 * registered by this same delegation records nothing (a resumed hand-off); any other existing
 * agent is refused `already_exists`.
 */
export function decideAcceptSpawn(command: AcceptSpawn, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const { data } = command;
  const agentId = assertValidId(data.agent_id, 'agent_id');
  const parentId = requireValidId(data.parent_agent_id, 'parent_agent_id');
  const mode = requireOneOf(data.workspace_mode, 'workspace_mode', WORKSPACE_MODES);
  const delegation = data.delegation ?? null;
  if (mode === 'private_child' && (delegation === null || data.message === undefined))
    throw new DomainError('validation_failed', { field: 'initial_message', rule: 'required' });
  if (mode === 'public_named' && delegation !== null)
    throw new DomainError('validation_failed', { field: 'workspace_mode', rule: 'public_child_has_no_delegation' });
  if (state.agent_id !== null) {
    if (delegation !== null && state.delegations.has(delegation.delegation_id)) return [];
    throw new DomainError('already_exists', { resource: 'agent', agent_id: state.agent_id });
  }
  const events: AgentEvent[] = [
    { type: 'AgentRegistered', data: { agent_id: agentId, at: now } },
    spawned(agentId, parentId, mode, data, now),
  ];
  if (delegation !== null) events.push(received(agentId, parentId, delegation, data.message!.message_id, now));
  if (data.message !== undefined) {
    const body = requireTrimmedText(data.message.body, 'initial_message', {
      min: 1,
      max: INITIAL_MESSAGE_MAX_LENGTH,
      shape: 'content',
    });
    const message = {
      message_id: requireValidId(data.message.message_id, 'message_id'),
      kind: 'internal_followup' as const,
      priority: 'normal' as const,
      authority: 'runtime_instruction' as const,
      origin: DELEGATION_ORIGIN,
      body,
      correlation_id: delegation?.delegation_id ?? null,
    };
    events.push(messageQueued(agentId, message, now));
  }
  return events;
}

function spawned(
  agentId: string,
  parentId: string,
  mode: AgentSpawned['data']['workspace_mode'],
  data: AcceptSpawn['data'],
  at: string,
): AgentSpawned {
  const preset = optionalTrimmedText(data.preset, 'preset', { min: 1, max: HOST_STRING_MAX_LENGTH });
  const template = optionalTrimmedText(data.template, 'template', { min: 1, max: HOST_STRING_MAX_LENGTH });
  return {
    type: 'AgentSpawned',
    data: { agent_id: agentId, parent_agent_id: parentId, workspace_mode: mode, preset, template, at },
  };
}

function received(
  agentId: string,
  parentId: string,
  delegation: NonNullable<AcceptSpawn['data']['delegation']>,
  messageId: string,
  at: string,
): WorkItemDelegationReceived {
  return {
    type: 'WorkItemDelegationReceived',
    data: {
      agent_id: agentId,
      delegation_id: requireValidId(delegation.delegation_id, 'delegation_id'),
      parent_agent_id: parentId,
      parent_work_item_id: requireValidId(delegation.parent_work_item_id, 'work_item_id'),
      label: delegation.label,
      message_id: messageId,
      at,
    },
  };
}
