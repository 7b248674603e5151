import { hash } from 'node:crypto';

const digest = (text: string) => hash('sha256', text);

/** The turn an activation opens: derived from its command id, so a repeated activation names the same turn. */
export const activationTurnId = (agentId: string, commandId: string) =>
  `turn_${digest(`${agentId}\u0000${commandId}`).slice(0, 32)}`;

/** Message ids of the scheduler's own messages: derived from what queued them, so a repeat is identical. */
export const messageId = (agentId: string, key: string) => `msg_${digest(`${agentId}\u0000${key}`).slice(0, 32)}`;
