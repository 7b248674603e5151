// NOTE: stored format. These literals appear in events, snapshots and read models.

/** How a spawned agent relates to its parent (docs/domain-contract.md §11). */
export type WorkspaceMode = 'private_child' | 'public_named';
export const WORKSPACE_MODES: readonly WorkspaceMode[] = ['private_child', 'public_named'];

/** `delegated` until the child's first item exists, `working` after; the last three are terminal. */
export type DelegationState = 'delegated' | 'working' | 'completed' | 'cancelled' | 'failed';
export type TerminalDelegationState = 'completed' | 'cancelled' | 'failed';
export const TERMINAL_DELEGATION_STATES: readonly TerminalDelegationState[] = ['completed', 'cancelled', 'failed'];

/** The side of the hand-off this agent is on: `parent` delegated it, `child` serves it. */
export type DelegationRole = 'parent' | 'child';

/** The task kind of the parent's supervised task for a private child. */
export const CHILD_AGENT_TASK_KIND = 'child_agent';

/**
 * One delegation as one agent's stream knows it. The parent's record is kept by
 * `WorkItemDelegated` and `WorkItemDelegationCompleted`; the child's by
 * `WorkItemDelegationReceived`, its own first item created while serving the delegation
 * message (`child_work_item_id`), and `WorkItemDelegationReported`.
 */
export type DelegationRecord = {
  delegation_id: string;
  role: DelegationRole;
  parent_agent_id: string;
  parent_work_item_id: string;
  child_agent_id: string;
  child_work_item_id: string | null;
  state: DelegationState;
  result_summary: string | null;
  /** Why a delegation ended `cancelled` or `failed`. */
  reason: string | null;
  /** The parent's supervised task (kind `child_agent`): the delegation id. */
  task_id: string;
  /** Derived once, at spawn, from the initial message. */
  label: string;
  /** The child's delegation message. */
  message_id: string;
  delegated_at: string;
  /** When the record turned terminal (the parent's completion, or the child's report). */
  ended_at: string | null;
};

/** What a spawned agent keeps about its spawn: the parent, the mode and the opaque host strings. */
export type SpawnRecord = {
  parent_agent_id: string;
  workspace_mode: WorkspaceMode;
  preset: string | null;
  template: string | null;
  /** The delegation a private child serves. */
  delegation_id: string | null;
  at: string;
};

export const isTerminalDelegationState = (state: DelegationState): state is TerminalDelegationState =>
  (TERMINAL_DELEGATION_STATES as readonly string[]).includes(state);

export const DELEGATION_LABEL_MAX_LENGTH = 80;

/**
 * The label of a child task: the initial message's first line of words, whitespace collapsed,
 * cut at 80 code points on a word boundary when it can be (an ellipsis marks a cut). Computed
 * once at spawn and stored in `WorkItemDelegated`, so a replay never re-derives it.
 */
export function delegationLabel(message: string): string {
  const flat = message.replace(/\s+/gu, ' ').trim();
  const points = [...flat];
  if (points.length <= DELEGATION_LABEL_MAX_LENGTH) return flat.length > 0 ? flat : 'child agent';
  const cut = points.slice(0, DELEGATION_LABEL_MAX_LENGTH - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space >= 40 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
