import { randomUUID } from 'node:crypto';
import {
  type AgentCommand,
  type AgentEvent,
  type AgentState,
  type CommandMeta,
  type PlanArtifact,
  type TodoItem,
  decide,
  evolve,
  initialAgentState,
} from '@app/domain';
import type { EventToAppend } from '@app/event-store';
import { currentSchemaVersion } from '@app/core';

/** Command times advance one second per command from this instant. */
const EPOCH = Date.UTC(2026, 0, 1);

export function planArtifact(agentId: string, workItemId: string, at: string): PlanArtifact {
  return {
    relative_path: `work-items/${workItemId}/plan.md`,
    hash: 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    byte_size: 0,
    updated_at: at,
    preview: '',
    preview_complete: true,
  };
}

/** A todo list of `size` items whose texts depend on `n`, so that every update changes it. */
export function todoList(n: number, size = 4): TodoItem[] {
  return Array.from({ length: size }, (_, i) => ({
    text: `step ${i + 1} of round ${n}: check the results and write down what changed`,
    state: i < n % (size + 1) ? 'completed' : i === n % (size + 1) ? 'in_progress' : 'pending',
  }));
}

export interface DecidedCommand {
  commandId: string;
  events: AgentEvent[];
}

/**
 * One agent's life, decided and folded by the real domain: registered, `items` work items
 * created, one picked, then todo-list updates round-robin over the items (one event each).
 * The state stays bounded however long the stream grows, as an agent working a steady
 * queue would: what grows is the number of events.
 */
export class AgentLife {
  state: AgentState = initialAgentState();
  private commands = 0;

  constructor(
    readonly agentId: string,
    private readonly items = 8,
  ) {}

  /** The next command's events (one event per command, except the first few). */
  next(): DecidedCommand {
    const n = this.commands++;
    const meta: CommandMeta = {
      now: new Date(EPOCH + n * 1000).toISOString(),
      command_id: `${this.agentId}-c${n}`,
      actor: 'bench',
    };
    const command = this.commandAt(n, meta);
    const events = decide(command, this.state);
    for (const event of events) this.state = evolve(this.state, event);
    return { commandId: meta.command_id, events };
  }

  /** Commands until at least `count` events, as events ready to append. */
  take(count: number): EventToAppend[] {
    const out: EventToAppend[] = [];
    while (out.length < count) {
      const { commandId, events } = this.next();
      out.push(...toAppend(events, commandId));
    }
    return out;
  }

  workItemId(i: number): string {
    return `w-${i % this.items}`;
  }

  private commandAt(n: number, meta: CommandMeta): AgentCommand {
    if (n === 0) return { type: 'RegisterAgent', data: { agent_id: this.agentId }, meta };
    if (n <= this.items) {
      const id = this.workItemId(n - 1);
      return {
        type: 'CreateWorkItem',
        data: {
          work_item_id: id,
          objective: `objective of ${id}`,
          plan_status: 'ready',
          todo_list: todoList(0),
          plan_artifact: planArtifact(this.agentId, id, meta.now),
        },
        meta,
      };
    }
    if (n === this.items + 1) return { type: 'PickWorkItem', data: { work_item_id: this.workItemId(0) }, meta };
    return { type: 'UpdateWorkItem', data: { work_item_id: this.workItemId(n), todo_list: todoList(n) }, meta };
  }
}

/** Domain events as the repository appends them (metadata: command id, actor, schema version). */
export function toAppend(events: readonly AgentEvent[], commandId: string): EventToAppend[] {
  return events.map((event) => ({
    id: randomUUID(),
    type: event.type,
    data: event.data as Record<string, unknown>,
    metadata: {
      command_id: commandId,
      correlation_id: commandId,
      causation_id: commandId,
      actor: 'bench',
      schema_version: currentSchemaVersion(event.type),
    },
  }));
}

/** An opaque event of about the size of a domain event, for the store-level figures. */
export function opaqueEvent(n: number): EventToAppend {
  return {
    id: randomUUID(),
    type: 'WorkItemUpdated',
    data: {
      agent_id: 'agent-bench',
      work_item_id: 'w-1',
      todo_list: todoList(n),
      revision: n,
      at: new Date(EPOCH + n).toISOString(),
    },
    metadata: {
      command_id: `c-${n}`,
      correlation_id: `c-${n}`,
      causation_id: `c-${n}`,
      actor: 'bench',
      schema_version: 1,
    },
  };
}
