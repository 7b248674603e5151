import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler, type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  type AgentState,
  type DelegateWorkItem,
  delegationCounterparts,
  DomainError,
  listDelegations,
  toDelegationView,
  toTaskView,
} from '@app/domain';
import { CLOCK, type Clock } from '@app/core';
import { AgentCommandService, type CommandEnvelope } from '../agents/agent-command.service';
import { APPLICATION_SETTINGS, type ApplicationSettings } from '../settings';
import { acceptSpawnData, DelegationHandoff, spawnKey } from './delegation-handoff';
import {
  ListDelegationsQuery,
  SpawnAgentCommand,
  type SpawnAgentInput,
  type SpawnReply,
  spawnIds,
} from './delegation.commands';

/** DELEGATION_FLAG_AFTER_MS default: a counterpart event missing this long flags the delegation. */
export const DEFAULT_DELEGATION_FLAG_AFTER_MS = 30_000;

const flagAfter = (settings?: ApplicationSettings) =>
  settings?.delegationFlagAfterMs ?? DEFAULT_DELEGATION_FLAG_AFTER_MS;

/**
 * SpawnAgent. private_child: the parent's append (delegation + child task) first, then the
 * child's (registration, spawn facts, delegation, first message), the second under the
 * hand-off's own key so that a crash between them is finished by the hand-off. public_named:
 * the child's append only, keyed by the caller's key.
 */
@CommandHandler(SpawnAgentCommand)
export class SpawnAgentHandler implements ICommandHandler<SpawnAgentCommand> {
  constructor(
    private readonly agents: AgentCommandService,
    private readonly handoff: DelegationHandoff,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(APPLICATION_SETTINGS) private readonly settings?: ApplicationSettings,
  ) {}

  async execute({ envelope, input }: SpawnAgentCommand) {
    const ids = spawnIds(envelope, input.agent_id);
    if (ids.child_agent_id === envelope.agentId)
      throw new DomainError('validation_failed', { field: 'agent_id', rule: 'is_the_parent' });
    const parent = await this.agents.load(envelope.agentId);
    if (parent.state.agent_id === null)
      throw new DomainError('not_found', { resource: 'agent' }, 'agent not registered');
    if (input.workspace_mode === 'public_named') return this.spawnPublic(envelope, input, ids);
    if (input.workspace_mode !== 'private_child')
      throw new DomainError('validation_failed', { field: 'workspace_mode', rule: 'invalid_enum' });
    await this.requireFreeChild(ids.child_agent_id, ids.delegation_id);
    const command: DelegateWorkItem = {
      type: 'DelegateWorkItem',
      data: {
        delegation_id: ids.delegation_id,
        child_agent_id: ids.child_agent_id,
        initial_message: input.initial_message as string,
        message_id: ids.message_id,
        ...(input.work_item_id !== undefined && { work_item_id: input.work_item_id }),
        ...(input.preset !== undefined && { preset: input.preset }),
        ...(input.template !== undefined && { template: input.template }),
      },
      meta: this.agents.meta(envelope),
    };
    const written = await this.agents.run(envelope, command, (_c, _b, after) => after);
    const record = written.delegations.get(ids.delegation_id);
    if (record === undefined) throw new Error(`spawn: delegation ${ids.delegation_id} missing after its append`);
    const delegated = {
      agent_id: envelope.agentId,
      delegation_id: record.delegation_id,
      parent_work_item_id: record.parent_work_item_id,
      child_agent_id: record.child_agent_id,
      task_id: record.task_id,
      label: record.label,
      initial_message: (input.initial_message ?? '').trim(),
      message_id: record.message_id,
      preset: input.preset?.trim() ?? null,
      template: input.template?.trim() ?? null,
      at: record.delegated_at,
    };
    const spawned = await this.handoff.acceptSpawn(
      record.child_agent_id,
      acceptSpawnData(delegated),
      spawnKey(record.delegation_id),
    );
    const child = spawned.state;
    const task = written.tasks.get(record.task_id);
    const reply: SpawnReply = {
      workspace_mode: 'private_child',
      child_agent_id: record.child_agent_id,
      delegation: toDelegationView(
        record,
        child.delegations.get(record.delegation_id) ?? null,
        this.now(),
        flagAfter(this.settings),
      ),
      task: task === undefined ? null : toTaskView(task),
      child_message_id: record.message_id,
      warnings: [],
    };
    return { ...reply, revision: written.revision, position: maxPosition(written.position, spawned.position) };
  }

  private async spawnPublic(envelope: CommandEnvelope, input: SpawnAgentInput, ids: ReturnType<typeof spawnIds>) {
    const message =
      input.initial_message === undefined ? undefined : { message_id: ids.message_id, body: input.initial_message };
    if (input.work_item_id !== undefined)
      throw new DomainError('validation_failed', { field: 'work_item_id', rule: 'public_child_has_no_delegation' });
    const data = {
      agent_id: ids.child_agent_id,
      parent_agent_id: envelope.agentId,
      workspace_mode: 'public_named' as const,
      ...(input.preset !== undefined && { preset: input.preset }),
      ...(input.template !== undefined && { template: input.template }),
      ...(message !== undefined && { message }),
    };
    const child = await this.handoff.acceptSpawn(ids.child_agent_id, data, `spawn:${ids.delegation_id}`);
    const parent = await this.agents.load(envelope.agentId);
    const reply: SpawnReply = {
      workspace_mode: 'public_named',
      child_agent_id: ids.child_agent_id,
      delegation: null,
      task: null,
      child_message_id: message === undefined ? null : message.message_id,
      warnings: [],
    };
    return { ...reply, revision: decimal(parent.revision), position: maxPosition(child.position, null) };
  }

  /** The child id must be free, or be this very delegation's child (a repeated spawn). */
  private async requireFreeChild(childId: string, delegationId: string): Promise<void> {
    const { state } = await this.agents.load(childId);
    if (state.agent_id !== null && !state.delegations.has(delegationId))
      throw new DomainError(
        'already_exists',
        { resource: 'agent', agent_id: childId },
        `agent ${childId} already exists`,
      );
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

@QueryHandler(ListDelegationsQuery)
export class ListDelegationsHandler implements IQueryHandler<ListDelegationsQuery> {
  constructor(
    private readonly agents: AgentCommandService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(APPLICATION_SETTINGS) private readonly settings?: ApplicationSettings,
  ) {}

  async execute({ agentId }: ListDelegationsQuery) {
    const { state } = await this.agents.load(agentId);
    if (state.agent_id === null)
      throw new DomainError('not_found', { resource: 'agent' }, `agent ${agentId} not found`);
    const counterparts = new Map<string, AgentState>();
    for (const other of delegationCounterparts(state)) {
      const loaded = await this.agents.load(other);
      if (loaded.state.agent_id !== null) counterparts.set(other, loaded.state);
    }
    const items = listDelegations(state, counterparts, this.clock.now().toISOString(), flagAfter(this.settings));
    return { items, total: items.length };
  }
}

const decimal = (value: bigint | null): string | null => (value === null ? null : value.toString());

function maxPosition(first: string | null, second: string | null): string | null {
  if (second === null) return first;
  if (first === null) return second;
  return BigInt(first) > BigInt(second) ? first : second;
}

export const DELEGATION_HANDLERS = [SpawnAgentHandler, ListDelegationsHandler];
