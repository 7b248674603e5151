import type { FocusCommand } from '../focus/focus.commands';
import type { CommandMeta } from '../shared/command-meta';
import type { WorkItemCommand } from '../work-item/work-item.commands';

export type RegisterAgent = {
  type: 'RegisterAgent';
  data: { agent_id: string };
  meta: CommandMeta;
};

/** Every command the agent decider accepts. Later slices add their unions here. */
export type AgentCommand = RegisterAgent | WorkItemCommand | FocusCommand;
