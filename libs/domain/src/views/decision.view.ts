import { type DecisionRecord, type SchedulerDecision, toDecisionRecord } from '../scheduler/decision';

/** docs/api.md decision shape (activations, `next_decision`, items of `decisions`): every link present, null when absent. */
export type DecisionView = DecisionRecord & { recorded_at: string | null };

/** The view of a decision; `recorded_at` is when it was recorded (or computed, for a `next_decision`). */
export function toDecisionView(decision: SchedulerDecision | DecisionRecord, recordedAt: string | null): DecisionView {
  return { ...toDecisionRecord(decision), recorded_at: recordedAt };
}

/** The decision view of a stored SchedulerDecisionRecorded event's data (what a decisions read model keeps). */
export function decisionViewOfEvent(data: { decision: DecisionRecord; at: string }): DecisionView {
  return toDecisionView(data.decision, data.at);
}
