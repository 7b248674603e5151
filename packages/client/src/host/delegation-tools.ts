/**
 * The delegation tool of the host (issue 17 item 1): the model spawns a private child that
 * serves a delegation of one of its items, or an independent public agent. Its key is the tool
 * call's (`<turn>:<call>`), so a retried call names the same delegation and the same child.
 */
import type { HostTool } from './host-types';

const ID = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$' };
const OPAQUE = { type: 'string', minLength: 1, maxLength: 200 };

export const spawnAgentTool: HostTool = {
  name: 'spawn_agent',
  description:
    'Hand work to another agent. private_child (default): a child agent gets initial_message as its delegated ' +
    'task on one of your work items (work_item_id, default your current focus); its completion report comes back ' +
    'as the result of task task_id on that item, in a new turn of yours (to wait for it: wait_for ' +
    '{wake: task_result, resource: task_id}). public_named: an independent agent (optional bootstrap ' +
    'initial_message), no delegation and no result.',
  parameters: {
    type: 'object',
    properties: {
      initial_message: {
        type: 'string',
        description: "the child's first message: what it should do (required for private_child)",
      },
      workspace_mode: { type: 'string', enum: ['private_child', 'public_named'] },
      agent_id: { ...ID, description: "the child's id (default: generated)" },
      work_item_id: { ...ID, description: 'your item the child works for (default: your current focus)' },
      preset: { ...OPAQUE, description: 'kept on the child for its host (e.g. which model or tools it gets)' },
      template: { ...OPAQUE, description: 'kept on the child for its host' },
    },
    required: [],
    additionalProperties: false,
  },
  async run(args, context) {
    const mode = (args.workspace_mode as 'private_child' | 'public_named' | undefined) ?? 'private_child';
    const message = args.initial_message as string | undefined;
    if (mode === 'private_child' && (message === undefined || message.trim() === '')) {
      throw new Error('spawn_agent: a private_child needs an initial_message (the work you hand it)');
    }
    const reply = await context.client.spawn(
      context.agentId,
      {
        workspace_mode: mode,
        ...(message !== undefined && { initial_message: message }),
        ...(args.agent_id !== undefined && { agent_id: args.agent_id as string }),
        ...(args.work_item_id !== undefined && { work_item_id: args.work_item_id as string }),
        ...(args.preset !== undefined && { preset: args.preset as string }),
        ...(args.template !== undefined && { template: args.template as string }),
      },
      { idempotencyKey: context.idempotencyKey, signal: context.signal },
    );
    const delegation = reply.delegation as { delegation_id: string; parent_work_item_id: string; label: string } | null;
    return {
      workspace_mode: reply.workspace_mode,
      child_agent_id: reply.child_agent_id,
      delegation_id: delegation?.delegation_id ?? null,
      task_id: (reply.task as { id: string } | null)?.id ?? null,
      work_item_id: delegation?.parent_work_item_id ?? null,
      label: delegation?.label ?? null,
      child_message_id: reply.child_message_id,
      warnings: reply.warnings,
    };
  },
};

/** The delegation tools every host offers after the work-item tools (`spawnTool: false` leaves them out). */
export const DELEGATION_TOOLS: readonly HostTool[] = [spawnAgentTool];
