import { type DecisionRecord, type SchedulerDecision, toDecisionRecord } from '../scheduler/decision';
import type { ClosureView } from './closure';

/**
 * docs/api.md decision shape (activations, `next_decision`, items of `decisions`): every link
 * present, null when absent. `closure` is the agent's closure on the state the decision was
 * decided on (a view, never stored in the event: decisions recorded before it existed have none).
 */
export type DecisionView = DecisionRecord & { recorded_at: string | null; closure?: ClosureView };

/** The view of a decision; `recorded_at` is when it was recorded (or computed, for a `next_decision`). */
export function toDecisionView(
  decision: SchedulerDecision | DecisionRecord,
  recordedAt: string | null,
  closure?: ClosureView,
): DecisionView {
  return { ...toDecisionRecord(decision), recorded_at: recordedAt, ...(closure && { closure }) };
}

/** The decision view of a stored SchedulerDecisionRecorded event's data (what a decisions read model keeps). */
export function decisionViewOfEvent(
  data: { decision: DecisionRecord; at: string },
  closure?: ClosureView,
): DecisionView {
  return toDecisionView(data.decision, data.at, closure);
}
