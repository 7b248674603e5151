import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import { itemIntentCancellations } from '../waiting-intent/waiting-intent.builders';
import type { WaitingIntentCancelReason } from '../waiting-intent/waiting-intent.state';

/** Why a work item's waits end without being satisfied. */
export type WaitCancellationCause = Exclude<WaitingIntentCancelReason, 'cancelled_by_caller'>;

/**
 * docs/domain-contract.md §3: `blocked_by: null` and CompleteWorkItem (and a new WaitFor on the item) cancel the
 * item's active work-item-scoped waiting intents, in the same decision: one
 * `WaitingIntentCancelled` per intent, followed by `TimerCancelled` for a timer wait's scheduled
 * timer. Agent-scoped intents are untouched.
 */
export function waitingIntentCancellationsFor(
  state: AgentState,
  workItemId: string,
  cause: WaitCancellationCause,
  at: string,
): AgentEvent[] {
  return itemIntentCancellations(state, workItemId, cause, at);
}
