import type { MessageAuthority, MessageBody, MessageKind, MessagePriority } from './message.state';
import type { MessageQueued } from './queue.events';

/** What a decision needs to queue a message; omitted links are null, liveness_only is false. */
export type NewMessage = {
  message_id: string;
  kind: MessageKind;
  priority: MessagePriority;
  authority: MessageAuthority;
  origin: string;
  body: MessageBody;
  work_item_id?: string | null;
  task_id?: string | null;
  correlation_id?: string | null;
  causation_id?: string | null;
  liveness_only?: boolean;
};

/** The one builder of MessageQueued (caller messages and the runtime's ticks, task results, callback events). */
export function messageQueued(agentId: string, message: NewMessage, at: string): MessageQueued {
  return {
    type: 'MessageQueued',
    data: {
      agent_id: agentId,
      message_id: message.message_id,
      kind: message.kind,
      priority: message.priority,
      authority: message.authority,
      origin: message.origin,
      body: message.body,
      work_item_id: message.work_item_id ?? null,
      task_id: message.task_id ?? null,
      correlation_id: message.correlation_id ?? null,
      causation_id: message.causation_id ?? null,
      liveness_only: message.liveness_only ?? false,
      at,
    },
  };
}

/** A message the runtime queues for itself: runtime authority, `next` band (ticks, timer fires, task results). */
export function runtimeMessageQueued(
  agentId: string,
  message: Omit<NewMessage, 'priority' | 'authority' | 'origin'> & { origin?: string },
  at: string,
): MessageQueued {
  return messageQueued(
    agentId,
    { priority: 'next', authority: 'runtime_instruction', origin: 'runtime', ...message },
    at,
  );
}
