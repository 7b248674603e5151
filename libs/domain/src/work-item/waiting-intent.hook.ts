import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';

/** Why a work item's waits end without being satisfied. */
export type WaitCancellationCause = 'blocker_cleared' | 'work_item_completed';

/**
 * HOOK POINT for the waiting-plane slice. SPEC.md §3: `blocked_by: null` and CompleteWorkItem
 * cancel the item's active work-item-scoped waiting intents (agent-scoped intents untouched),
 * in the same decision. Until the waiting plane lands there are no intents to cancel, so this
 * returns []. The waiting-plane slice replaces the body with one `WaitingIntentCancelled` per
 * active intent of the item; its callers already splice the result into their events.
 */
export function waitingIntentCancellationsFor(
  _state: AgentState,
  _workItemId: string,
  _cause: WaitCancellationCause,
  _at: string,
): AgentEvent[] {
  return [];
}
