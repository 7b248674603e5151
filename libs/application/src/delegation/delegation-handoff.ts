import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  type AcceptSpawn,
  type AgentCommand,
  type AgentState,
  type DelegationRecord,
  isTerminalDelegationState,
  type WorkItemDelegated,
} from '@app/domain';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { agentStream } from '@app/core';
import { AgentCommandService } from '../agents/agent-command.service';
import type { Caller } from '../auth/request-authorizer';
import { PRIVATE_CHILDREN, type PrivateChildren } from '../auth/private-children';
import { delegationResultMessageId } from './delegation.commands';

/** The hand-off writes as this caller (the `actor` of its events). */
export const HANDOFF_CALLER: Caller = { tokenName: 'handoff', agents: [], admin: true };

const none = () => ({});

/**
 * The hand-off between a parent's and a child's streams (issue 17 item 3, docs/decisions/0031):
 * each step reads both agents' states and writes what is owed, under a command id derived from
 * the delegation and the step (`handoff:<delegation>:<spawn|report|complete|stop>`), in the
 * scheduler's window. The deciders record nothing for a step already done, and the ids make a
 * repeat a replay: running it twice, concurrently, or again after a crash is harmless.
 */
@Injectable()
export class DelegationHandoff {
  constructor(
    private readonly agents: AgentCommandService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Optional() @Inject(PRIVATE_CHILDREN) private readonly children?: PrivateChildren,
  ) {}

  /**
   * Everything owed for this agent's delegations, both ways. False when the agent is in no
   * delegation (nothing was or could be owed: the hand-off worker need not save its checkpoint for it).
   */
  async settle(agentId: string): Promise<boolean> {
    // Most agents it visits are in no delegation: read, not cached (the writes below cache what they touch).
    const { state } = await this.agents.load(agentId, { keep: false });
    if (state.spawned?.workspace_mode === 'private_child') this.children?.add(agentId, state.spawned.parent_agent_id);
    if (state.delegations.size === 0) return false;
    for (const record of state.delegations.values()) {
      if (isTerminalDelegationState(record.state) && record.role === 'parent') continue;
      if (record.role === 'parent') await this.fromParent(state, record);
      else await this.fromChild(record.child_agent_id, record.delegation_id);
    }
    return true;
  }

  /**
   * True when the agent is known, without IO, to be in no delegation as of its event at
   * `revision`: this process's cached state includes that event and has no delegation and no
   * spawn. Its `settle` would then do nothing; a delegation that starts later has its own events.
   */
  inNoDelegation(agentId: string, revision: bigint): boolean {
    const state = this.agents.peekAt(agentId, revision);
    return state !== null && state.delegations.size === 0 && state.spawned === null;
  }

  /** The child's half of a spawn (the spawn route runs it at once; after a crash the hand-off does). */
  async acceptSpawn(
    childId: string,
    data: AcceptSpawn['data'],
    key: string,
  ): Promise<{ state: AgentState; position: string | null }> {
    const command: AcceptSpawn = { type: 'AcceptSpawn', data, meta: this.meta(key) };
    const result = await this.run(childId, key, command, (_c, _b, after) => ({ state: after }));
    if (data.workspace_mode === 'private_child') this.children?.add(childId, data.parent_agent_id);
    return { state: result.state, position: result.position };
  }

  private async fromParent(parent: AgentState, record: DelegationRecord): Promise<void> {
    const child = (await this.agents.load(record.child_agent_id)).state;
    const counterpart = child.delegations.get(record.delegation_id);
    if (counterpart === undefined) {
      if (child.agent_id === null) await this.resumeSpawn(record);
      return;
    }
    if (isTerminalDelegationState(counterpart.state)) return this.completeParent(counterpart);
    const task = parent.tasks.get(record.task_id);
    const taskCancelled = task !== undefined && (task.status === 'cancelling' || task.status === 'cancelled');
    if ((parent.posture === 'stopped' || taskCancelled) && child.posture !== 'stopped') {
      const stop: AgentCommand = { type: 'Control', data: { action: 'stop' }, meta: this.meta('') };
      await this.run(record.child_agent_id, `handoff:${record.delegation_id}:stop`, stop, none);
      await this.fromChild(record.child_agent_id, record.delegation_id);
    }
  }

  /** Report on the child's stream (once its outcome holds), then complete on the parent's. */
  private async fromChild(childId: string, delegationId: string): Promise<void> {
    let record = (await this.agents.load(childId)).state.delegations.get(delegationId);
    if (record === undefined) return;
    if (!isTerminalDelegationState(record.state)) {
      const report: AgentCommand = {
        type: 'ReportDelegation',
        data: { delegation_id: delegationId },
        meta: this.meta(''),
      };
      const after = await this.run(childId, `handoff:${delegationId}:report`, report, (_c, _b, s) => ({ state: s }));
      record = after.state.delegations.get(delegationId);
      if (record === undefined || !isTerminalDelegationState(record.state)) return;
    }
    await this.completeParent(record);
  }

  private async completeParent(reported: DelegationRecord): Promise<void> {
    const parent = (await this.agents.load(reported.parent_agent_id)).state;
    const own = parent.delegations.get(reported.delegation_id);
    if (own === undefined || isTerminalDelegationState(own.state) || !isTerminalDelegationState(reported.state)) return;
    const command: AgentCommand = {
      type: 'CompleteDelegation',
      data: {
        delegation_id: reported.delegation_id,
        state: reported.state,
        result_summary: reported.result_summary,
        reason: reported.reason,
        child_work_item_id: reported.child_work_item_id,
        message_id: delegationResultMessageId(reported.delegation_id),
      },
      meta: this.meta(''),
    };
    await this.run(reported.parent_agent_id, `handoff:${reported.delegation_id}:complete`, command, none);
  }

  /** A spawn interrupted between its two appends: the child is created from the parent's WorkItemDelegated. */
  private async resumeSpawn(record: DelegationRecord): Promise<void> {
    const events = await this.store.readStream(agentStream(record.parent_agent_id));
    const stored = events.find(
      (event) =>
        event.type === 'WorkItemDelegated' &&
        (event.data as WorkItemDelegated['data']).delegation_id === record.delegation_id,
    );
    if (stored === undefined) return;
    const delegated = stored.data as WorkItemDelegated['data'];
    await this.acceptSpawn(record.child_agent_id, acceptSpawnData(delegated), spawnKey(record.delegation_id));
  }

  private meta(key: string) {
    return this.agents.meta({
      agentId: '',
      caller: HANDOFF_CALLER,
      idempotencyKey: key || 'handoff',
      scope: 'scheduler',
    });
  }

  private async run<C extends AgentCommand, R>(
    agentId: string,
    key: string,
    command: C,
    render: (command: C, before: AgentState, after: AgentState) => R,
  ): Promise<R & { position: string | null }> {
    const envelope = { agentId, caller: HANDOFF_CALLER, idempotencyKey: key, scope: 'scheduler' as const };
    return this.agents.run(envelope, { ...command, meta: this.agents.meta(envelope) }, render);
  }
}

/** The command id of a delegation's child creation (the spawn route and the hand-off use the same). */
export const spawnKey = (delegationId: string): string => `handoff:${delegationId}:spawn`;

/** The child's half of a private spawn, from the parent's WorkItemDelegated. */
export function acceptSpawnData(delegated: WorkItemDelegated['data']): AcceptSpawn['data'] {
  return {
    agent_id: delegated.child_agent_id,
    parent_agent_id: delegated.agent_id,
    workspace_mode: 'private_child',
    ...(delegated.preset !== null && { preset: delegated.preset }),
    ...(delegated.template !== null && { template: delegated.template }),
    delegation: {
      delegation_id: delegated.delegation_id,
      parent_work_item_id: delegated.parent_work_item_id,
      label: delegated.label,
    },
    message: { message_id: delegated.message_id, body: delegated.initial_message },
  };
}
