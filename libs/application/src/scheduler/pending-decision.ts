import { type AgentState, sameDecision, type SchedulerDecision } from '@app/domain';

/**
 * A keyed decision (a tick) already last recorded by another writer awaits its effect: carry it out, do not record it
 * again (ADR 0039). Same key and subject is enough: its evidence may have changed with an unrelated event since.
 */
export function pendingKeyedDecision(state: AgentState, decision: SchedulerDecision): boolean {
  const last = state.last_decision?.decision;
  if (last === undefined) return false;
  if (sameDecision(last, decision)) return true;
  const key = decision.idempotency_key ?? null;
  return (
    key !== null &&
    last.idempotency_key === key &&
    last.kind === decision.kind &&
    last.work_item_id === (decision.work_item_id ?? null) &&
    last.message_id === (decision.message_id ?? null) &&
    last.task_id === (decision.task_id ?? null)
  );
}
