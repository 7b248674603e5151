/** The host side: AgentHost (the loop), its tools and the model adapters. */
export { AgentHost, type StopOptions } from './agent-host';
export type {
  AgentHostOptions,
  HostClient,
  HostEvent,
  HostListener,
  HostTool,
  StopMode,
  TerminalKind,
  ToolContext,
} from './host-types';
export {
  checkArguments,
  completeWorkItemTool,
  createWorkItemTool,
  getWorkItemTool,
  listWorkItemsTool,
  pickWorkItemTool,
  updateWorkItemTool,
  waitForTool,
  WORK_ITEM_TOOLS,
} from './tools';
export { DELEGATION_TOOLS, spawnAgentTool } from './delegation-tools';
export { renderMessage, roundText, wireId, type HostMessage } from './turn-text';
export * from './model';
