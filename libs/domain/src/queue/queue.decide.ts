import {
  requireAbsent,
  requireNotStopped,
  requireRecord,
  requireRegistered,
  requireWorkItem,
} from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError, validationFailed } from '../shared/domain-error';
import { assertValidId } from '../shared/ids';
import { optionalOneOf, optionalValidId, requireOneOf } from '../shared/validation';
import {
  MESSAGE_AUTHORITIES,
  MESSAGE_KINDS,
  MESSAGE_PRIORITIES,
  type MessageKind,
  RUNTIME_OWNED_MESSAGE_KINDS,
} from './message.state';
import { requireLabel, validateMessageBody } from './message.validation';
import type { DropMessage, EnqueueMessage } from './queue.commands';
import type { MessageDropped, MessageQueued } from './queue.events';
import { messageQueued, type NewMessage } from './queue.messages';

export const CALLER_MESSAGE_KINDS: readonly MessageKind[] = MESSAGE_KINDS.filter(
  (k) => !RUNTIME_OWNED_MESSAGE_KINDS.includes(k),
);

function callerKind(value: unknown): MessageKind {
  const kind = requireOneOf(value, 'kind', MESSAGE_KINDS);
  if (RUNTIME_OWNED_MESSAGE_KINDS.includes(kind)) {
    throw validationFailed('kind', 'runtime_owned_kind', { kind, allowed: CALLER_MESSAGE_KINDS });
  }
  return kind;
}

function validateEnqueue(data: EnqueueMessage['data']): NewMessage {
  return {
    message_id: assertValidId(data.message_id, 'message_id'),
    kind: callerKind(data.kind),
    body: validateMessageBody(data.body),
    priority: optionalOneOf(data.priority, 'priority', MESSAGE_PRIORITIES, 'normal'),
    authority: requireOneOf(data.authority, 'authority', MESSAGE_AUTHORITIES),
    origin: data.origin === undefined ? 'api' : requireLabel(data.origin, 'origin'),
    work_item_id: optionalValidId(data.work_item_id, 'work_item_id'),
    task_id: optionalValidId(data.task_id, 'task_id'),
    correlation_id: data.correlation_id === undefined ? null : requireLabel(data.correlation_id, 'correlation_id'),
  };
}

/** EnqueueMessage: a caller's message joins its priority band. Linked item and task must exist. */
export function decideEnqueueMessage(command: EnqueueMessage, state: AgentState): MessageQueued[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const message = validateEnqueue(command.data);
  if (message.work_item_id) requireWorkItem(state, message.work_item_id);
  if (message.task_id) requireRecord(state.tasks, message.task_id, 'task');
  requireAbsent(state.messages, message.message_id, 'message');
  if (message.priority === 'interject' && message.kind === 'operator_prompt') {
    requireNotStopped(state, 'interject', { message_id: message.message_id });
  }
  return [messageQueued(agentId, message, now)];
}

/** DropMessage (operator): only a queued message can be dropped; dropping a dropped one records nothing. */
export function decideDropMessage(command: DropMessage, state: AgentState): MessageDropped[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const messageId = assertValidId(command.data.message_id, 'message_id');
  const message = requireRecord(state.messages, messageId, 'message');
  if (message.status === 'dropped') return [];
  if (message.status !== 'queued') {
    throw new DomainError(
      'invariant_violated',
      { rule: 'message_not_queued', message_id: messageId, status: message.status },
      `message ${messageId} is ${message.status}, only a queued message can be dropped`,
    );
  }
  return [
    {
      type: 'MessageDropped',
      data: { agent_id: agentId, message_id: messageId, reason: 'dropped_by_operator', at: now },
    },
  ];
}
