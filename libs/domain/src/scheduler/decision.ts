// NOTE: stored format. Decision kinds and reasons appear in SchedulerDecisionRecorded and read models.
export type DecisionKind =
  | 'StartModelTurn'
  | 'ReduceMessageOnly'
  | 'EmitSystemTick'
  | 'WaitForTask'
  | 'WaitForExternalChange'
  | 'WaitForTimer'
  | 'WaitForOperator'
  | 'Sleep'
  | 'StayIdle'
  | 'Stop'
  | 'Noop';
export const DECISION_KINDS: readonly DecisionKind[] = [
  'StartModelTurn',
  'ReduceMessageOnly',
  'EmitSystemTick',
  'WaitForTask',
  'WaitForExternalChange',
  'WaitForTimer',
  'WaitForOperator',
  'Sleep',
  'StayIdle',
  'Stop',
  'Noop',
];

/** Why a system tick is emitted; also the tick body's opening word. */
export type TickReason =
  'wake_hint' | 'continue_active' | 'triggered_review' | 'queued_available' | 'work_item_recheck';
export const TICK_REASONS: readonly TickReason[] = [
  'wake_hint',
  'continue_active',
  'triggered_review',
  'queued_available',
  'work_item_recheck',
];

/** The scheduler's answer (docs/domain-contract.md §5). Links are present only when they apply. */
export type SchedulerDecision = {
  kind: DecisionKind;
  reason: string;
  model_reentry: boolean;
  liveness_only: boolean;
  message_id?: string;
  work_item_id?: string;
  task_id?: string;
  idempotency_key?: string;
  evidence: string[];
};

/** The stored form (docs/api.md decision shape without recorded_at): every link present, null when absent. */
export type DecisionRecord = {
  kind: DecisionKind;
  reason: string;
  model_reentry: boolean;
  liveness_only: boolean;
  message_id: string | null;
  work_item_id: string | null;
  task_id: string | null;
  idempotency_key: string | null;
  evidence: string[];
};

/** The last decision the scheduler recorded, and the `now` it was computed at. */
export type RecordedDecision = { decision: DecisionRecord; at: string };

/**
 * Decisions the worker carries out at once (always recorded); the others are recorded only when
 * they differ from the last one. StartModelTurn is carried out by a host's activation, not by the
 * worker, so a worker that sees it again and again records it once.
 */
export const EFFECTFUL_DECISION_KINDS: readonly DecisionKind[] = ['ReduceMessageOnly', 'EmitSystemTick', 'Sleep'];

const orNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The stored form of a decision, in a fixed key order (so two equal decisions serialise equally). */
export function toDecisionRecord(decision: SchedulerDecision | DecisionRecord): DecisionRecord {
  return {
    kind: decision.kind,
    reason: decision.reason,
    model_reentry: decision.model_reentry,
    liveness_only: decision.liveness_only,
    message_id: orNull(decision.message_id),
    work_item_id: orNull(decision.work_item_id),
    task_id: orNull(decision.task_id),
    idempotency_key: orNull(decision.idempotency_key),
    evidence: Array.isArray(decision.evidence) ? decision.evidence.map(String) : [],
  };
}

/** Equal as stored (absent and null links are the same). */
export function sameDecision(a: SchedulerDecision | DecisionRecord, b: SchedulerDecision | DecisionRecord): boolean {
  return JSON.stringify(toDecisionRecord(a)) === JSON.stringify(toDecisionRecord(b));
}

/** The fields on which two decisions differ (for replay reports). */
export function decisionDifferences(
  a: SchedulerDecision | DecisionRecord,
  b: SchedulerDecision | DecisionRecord,
): string[] {
  const left = toDecisionRecord(a);
  const right = toDecisionRecord(b);
  return (Object.keys(left) as (keyof DecisionRecord)[]).filter(
    (key) => JSON.stringify(left[key]) !== JSON.stringify(right[key]),
  );
}

type Links = Pick<SchedulerDecision, 'message_id' | 'work_item_id' | 'task_id' | 'idempotency_key'>;

/** A decision with no re-entry and no liveness flag (waits, idle, stop, noop). */
export function plainDecision(
  kind: DecisionKind,
  reason: string,
  evidence: string[],
  links: Links = {},
): SchedulerDecision {
  return { kind, reason, model_reentry: false, liveness_only: false, ...definedLinks(links), evidence };
}

/** Only the links that are set (a decision carries no undefined keys). */
export function definedLinks(links: Links): Links {
  return Object.fromEntries(Object.entries(links).filter(([, value]) => typeof value === 'string')) as Links;
}
