import { DELEGATION_TOOLS, type HostTool, WORK_ITEM_TOOLS } from '@agent-runtime/client';
import {
  ID_PATTERN,
  PLAN_STATUSES,
  TODO_STATES,
  WAIT_WAKES,
  WORK_ITEM_QUERY_FILTERS,
  WORKSPACE_MODES,
} from '@app/domain';

/**
 * The client package stands alone (it imports nothing of the runtime), so its model tools spell
 * out the values the API accepts. Here they are held to the runtime's own lists: a value the API
 * gained (or lost) and a tool did not shows up as a failure, not as a model that never uses it.
 */
const ACCEPTED: Record<string, readonly string[]> = {
  plan_status: PLAN_STATUSES,
  state: TODO_STATES,
  filter: WORK_ITEM_QUERY_FILTERS,
  wake: WAIT_WAKES,
  workspace_mode: WORKSPACE_MODES,
};

interface Found {
  at: string;
  property: string;
  schema: { enum?: unknown[]; pattern?: unknown };
}

/** Every property schema of a tool's parameters, nested objects and array items included. */
function properties(tool: HostTool): Found[] {
  const found: Found[] = [];
  const walk = (schema: Record<string, unknown>, at: string) => {
    const nested = schema.properties as Record<string, Record<string, unknown>> | undefined;
    for (const [property, child] of Object.entries(nested ?? {})) {
      found.push({ at: `${at}.${property}`, property, schema: child });
      walk(child, `${at}.${property}`);
    }
    const items = schema.items as Record<string, unknown> | undefined;
    if (items) walk(items, `${at}[]`);
  };
  walk(tool.parameters, tool.name);
  return found;
}

const TOOLS = [...WORK_ITEM_TOOLS, ...DELEGATION_TOOLS];
const ALL = TOOLS.flatMap(properties);

describe("the host tools' schemas against the runtime's lists", () => {
  it('finds the tools and their enums (the walk reaches nested items)', () => {
    expect(TOOLS.length).toBeGreaterThanOrEqual(8);
    expect(ALL.filter((p) => p.schema.enum).map((p) => p.at)).toEqual(
      expect.arrayContaining([
        'create_work_item.todos[].state',
        'list_work_items.filter',
        'wait_for.wake',
        'spawn_agent.workspace_mode',
      ]),
    );
  });

  it.each(ALL.filter((p) => p.schema.enum).map((p) => [p.at, p] as const))(
    '%s offers exactly the values the API accepts',
    (_at, { property, schema }) => {
      const accepted = ACCEPTED[property];
      // A new enum needs its list here first.
      expect(accepted).toBeDefined();
      expect([...(schema.enum ?? [])].sort()).toEqual([...accepted].sort());
    },
  );

  it('spells ids with the runtime’s id pattern', () => {
    const patterns = ALL.filter((p) => p.schema.pattern !== undefined);
    expect(patterns.length).toBeGreaterThan(0);
    for (const { schema } of patterns) expect(schema.pattern).toBe(ID_PATTERN.source);
  });
});
