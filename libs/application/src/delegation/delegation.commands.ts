import { hash } from 'node:crypto';
import { Command, Query } from '@nestjs/cqrs';
import type { DelegationView, TaskView, WorkspaceMode } from '@app/domain';
import { type CommandEnvelope, commandIdOf, type WithRevision } from '../agents/agent-command.service';

export interface SpawnAgentInput {
  workspace_mode: WorkspaceMode;
  /** Required for private_child; a public_named child's optional bootstrap message. */
  initial_message?: string;
  /** The child's id; default derived from the parent and the idempotency key. */
  agent_id?: string;
  preset?: string;
  template?: string;
  /** The parent's delegating item; default its focus. */
  work_item_id?: string;
}

/** What SpawnAgent answers: `revision` is the parent's, `position` the spawn's last write. */
export type SpawnReply = {
  workspace_mode: WorkspaceMode;
  child_agent_id: string;
  /** private_child: the delegation, its supervised task and the child's delegation message. */
  delegation: DelegationView | null;
  task: TaskView | null;
  child_message_id: string | null;
  warnings: never[];
};

/** POST /v1/agents/{parent}/spawn (gRPC SpawnAgent). */
export class SpawnAgentCommand extends Command<WithRevision<SpawnReply>> {
  constructor(
    readonly envelope: CommandEnvelope,
    readonly input: SpawnAgentInput,
  ) {
    super();
  }
}

export type DelegationList = { items: DelegationView[]; total: number };

/** GET /v1/agents/{a}/delegations: both directions, from the two agents' streams, with the flag. */
export class ListDelegationsQuery extends Query<DelegationList> {
  constructor(readonly agentId: string) {
    super();
  }
}

const hex = (seed: string, length: number) => hash('sha256', seed).slice(0, length);

/**
 * The ids a spawn generates (docs/decisions/0031): derived from the parent and the idempotency
 * key, so a repeated spawn names the same delegation, child and message.
 */
export function spawnIds(envelope: CommandEnvelope, agentId?: string) {
  const seed = `${envelope.agentId}\u0000spawn\u0000${commandIdOf(envelope)}`;
  const delegationId = `dlg_${hex(seed, 32)}`;
  return {
    delegation_id: delegationId,
    child_agent_id: agentId ?? `child_${hex(seed, 24)}`,
    message_id: `msg_${hex(`${seed}\u0000message`, 32)}`,
  };
}

/** The task_result message id of a delegation's completion: one per delegation, whoever writes it. */
export const delegationResultMessageId = (delegationId: string): string => `msg_${hex(`${delegationId}:result`, 32)}`;
