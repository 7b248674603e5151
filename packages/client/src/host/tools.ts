/**
 * The model tools every AgentHost offers: the work-item tools and wait_for, each a JSON Schema
 * the model sees and a call of the client. Their results are compact (the views, the warnings),
 * without the reply's revision and position. Refusals are thrown: the host hands them to the
 * model as error results.
 */
import type { UpdateWorkItemBody } from '../types';
import type { JsonRecord } from './model/model-adapter';
import type { HostTool, ToolContext } from './host-types';

const ID = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$' };
const TODOS = {
  type: 'array',
  description: 'the whole todo list, replacing the old one ([] clears it)',
  items: {
    type: 'object',
    properties: { text: { type: 'string' }, state: { type: 'string', enum: ['pending', 'in_progress', 'completed'] } },
    required: ['text', 'state'],
    additionalProperties: false,
  },
};
const PLAN_STATUS = { type: 'string', enum: ['draft', 'ready', 'needs_input'] };

function schema(properties: JsonRecord, required: string[] = []): JsonRecord {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** Refuses arguments the schema does not allow at its top level (the runtime checks the rest). */
export function checkArguments(tool: HostTool, args: JsonRecord): void {
  const properties = (tool.parameters.properties ?? {}) as Record<string, { type?: string | string[] }>;
  const required = (tool.parameters.required ?? []) as string[];
  for (const name of required) {
    if (args[name] === undefined) throw new Error(`${tool.name}: argument "${name}" is required`);
  }
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name];
    if (!property) throw new Error(`${tool.name}: unknown argument "${name}"`);
    const types = property.type === undefined ? [] : [property.type].flat();
    if (types.length > 0 && !types.some((type) => hasType(value, type))) {
      throw new Error(`${tool.name}: argument "${name}" must be ${types.join(' or ')}`);
    }
  }
}

function hasType(value: unknown, type: string): boolean {
  if (type === 'null') return value === null;
  if (type === 'array') return Array.isArray(value);
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof value === type;
}

const str = (args: JsonRecord, name: string): string => String(args[name]);
const opt = <T>(args: JsonRecord, name: string): T | undefined => args[name] as T | undefined;
const commandOptions = (context: ToolContext) => ({ idempotencyKey: context.idempotencyKey, signal: context.signal });

export const createWorkItemTool: HostTool = {
  name: 'create_work_item',
  description: 'Create a work item (an objective to pursue), optionally with a plan (markdown) and a todo list.',
  parameters: schema(
    {
      objective: { type: 'string', description: 'what the item is for' },
      work_item_id: { ...ID, description: 'an id of your choice (default: generated)' },
      plan: { type: 'string', description: 'the plan, markdown' },
      plan_status: PLAN_STATUS,
      todos: TODOS,
    },
    ['objective'],
  ),
  async run(args, context) {
    const reply = await context.client.createWorkItem(
      context.agentId,
      {
        objective: str(args, 'objective'),
        work_item_id: opt(args, 'work_item_id'),
        plan: opt(args, 'plan'),
        plan_status: opt(args, 'plan_status'),
        todo_list: opt(args, 'todos'),
      },
      commandOptions(context),
    );
    return { work_item_id: reply.work_item.id, work_item: reply.work_item, warnings: reply.warnings };
  },
};

export const updateWorkItemTool: HostTool = {
  name: 'update_work_item',
  description:
    'Update a work item: its objective, plan status, todo list, blocker (blocked_by, null clears) or recheck time, or replace its plan.',
  parameters: schema(
    {
      work_item_id: ID,
      objective: { type: 'string' },
      plan_status: PLAN_STATUS,
      todos: TODOS,
      blocked_by: { type: ['string', 'null'], description: 'why the item is blocked; null clears the blocker' },
      recheck_at: { type: ['string', 'null'], description: 'RFC 3339: when to look at a blocked item again' },
      plan: { type: 'string', description: 'the new plan body (markdown), replacing the old one' },
    },
    ['work_item_id'],
  ),
  async run(args, context) {
    const id = str(args, 'work_item_id');
    const { work_item_id: _, plan, todos, ...fields } = args;
    const body = { ...fields, ...(todos !== undefined ? { todo_list: todos } : {}) } as UpdateWorkItemBody;
    let reply: { work_item: unknown; warnings?: unknown[] } | undefined;
    if (Object.keys(body).length > 0) {
      reply = await context.client.updateWorkItem(context.agentId, id, body, commandOptions(context));
    }
    if (typeof plan === 'string') {
      const key = `${context.idempotencyKey}:plan`;
      reply = await context.client.replacePlan(context.agentId, id, plan, {
        ...commandOptions(context),
        idempotencyKey: key,
      });
    }
    if (!reply) throw new Error('update_work_item: nothing to update');
    return { work_item: reply.work_item, warnings: reply.warnings ?? [] };
  },
};

export const pickWorkItemTool: HostTool = {
  name: 'pick_work_item',
  description: 'Focus on a work item (it becomes the current one).',
  parameters: schema({ work_item_id: ID, reason: { type: 'string' } }, ['work_item_id']),
  async run(args, context) {
    const reply = await context.client.pickWorkItem(
      context.agentId,
      str(args, 'work_item_id'),
      { reason: opt(args, 'reason') },
      commandOptions(context),
    );
    return { current: reply.current, previous: reply.previous, warnings: reply.warnings };
  },
};

export const completeWorkItemTool: HostTool = {
  name: 'complete_work_item',
  description:
    'Complete a work item. `report` is the completion report the operator reads (it becomes the text of this round).',
  parameters: schema({ work_item_id: ID, report: { type: 'string' } }, ['work_item_id']),
  async run(args, context) {
    const reply = await context.client.completeWorkItem(
      context.agentId,
      str(args, 'work_item_id'),
      { round_id: context.roundId },
      commandOptions(context),
    );
    return { work_item: reply.work_item, completed_transition: reply.completed_transition, warnings: reply.warnings };
  },
};

export const getWorkItemTool: HostTool = {
  name: 'get_work_item',
  description: 'Read a work item, with its plan body.',
  parameters: schema({ work_item_id: ID }, ['work_item_id']),
  async run(args, context) {
    const id = str(args, 'work_item_id');
    const [workItem, plan] = await Promise.all([
      context.client.getWorkItem(context.agentId, id, { signal: context.signal }),
      context.client.getPlan(context.agentId, id, {}, { signal: context.signal }),
    ]);
    return { work_item: workItem, plan };
  },
};

export const listWorkItemsTool: HostTool = {
  name: 'list_work_items',
  description: 'List work items (filter archived: the completed items archiving took out of the live list).',
  parameters: schema({
    filter: {
      type: 'string',
      enum: [
        'all',
        'open',
        'completed',
        'current',
        'queued',
        'blocked',
        'waiting_for_operator',
        'runnable',
        'triggered',
        'archived',
      ],
    },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
  }),
  async run(args, context) {
    const query = { filter: opt<'all'>(args, 'filter'), limit: opt<number>(args, 'limit') };
    return context.client.listWorkItems(context.agentId, query, { signal: context.signal });
  },
};

export const waitForTool: HostTool = {
  name: 'wait_for',
  description:
    'Wait for something before going on: a timer (delay_ms or fire_at), a task result (resource: the task id), ' +
    'an operator answer (operator_input) or an external signal (resource, source). With work_item_id the item is ' +
    'blocked until then; you get a new turn when it happens.',
  parameters: schema(
    {
      wake: { type: 'string', enum: ['timer', 'task_result', 'operator_input', 'external'] },
      reason: { type: 'string', description: 'what you wait for (the item shows it as its blocker)' },
      work_item_id: ID,
      delay_ms: { type: 'integer', minimum: 0, description: 'timer: fire after this many ms' },
      fire_at: { type: 'string', description: 'timer: RFC 3339 time to fire at' },
      resource: { type: 'string', description: 'task_result: the task id; external: what is awaited' },
      source: { type: 'string' },
      condition: { type: 'string' },
    },
    ['wake', 'reason'],
  ),
  async run(args, context) {
    const { work_item_id, delay_ms, ...fields } = args;
    const fireAt =
      typeof delay_ms === 'number' ? new Date(Date.now() + delay_ms).toISOString() : opt<string>(args, 'fire_at');
    const body = { ...fields, ...(fireAt !== undefined ? { fire_at: fireAt } : {}) } as Parameters<
      ToolContext['client']['waitFor']
    >[2];
    const scope = typeof work_item_id === 'string' ? work_item_id : null;
    const reply = await context.client.waitFor(context.agentId, scope, body, commandOptions(context));
    return {
      waiting_intent: reply.waiting_intent,
      ...(reply.callback_token ? { callback_token: reply.callback_token } : {}),
      warnings: reply.warnings,
    };
  },
};

/** The tools every host offers, in the order the model sees them. */
export const WORK_ITEM_TOOLS: readonly HostTool[] = [
  createWorkItemTool,
  updateWorkItemTool,
  pickWorkItemTool,
  completeWorkItemTool,
  getWorkItemTool,
  listWorkItemsTool,
  waitForTool,
];
