// NOTE: stored format. Idempotency keys are kept in emitted_tick_keys and on SystemTickEmitted.

const FRACTION = /\.(\d+)/;

/**
 * Microseconds since the Unix epoch of an RFC 3339 instant (digits below the microsecond are
 * dropped). A text that is not an instant is returned as it is, so a key is always a string.
 */
export function epochMicros(instant: string): string {
  const fraction = FRACTION.exec(instant)?.[1] ?? '';
  const ms = Date.parse(instant.replace(FRACTION, ''));
  if (!Number.isFinite(ms)) return instant;
  const micros = Number(`${fraction}000000`.slice(0, 6));
  return String(ms * 1000 + micros);
}

export const wakeHintKey = (source: string, createdAt: string): string =>
  `wake_hint:${source}:${epochMicros(createdAt)}`;

export const continueActiveKey = (workItemId: string, revision: number): string =>
  `work_queue:continue_active:${workItemId}:${revision}`;

export const triggeredReviewKey = (workItemId: string, triggerCount: number): string =>
  `work_queue:triggered_review:${workItemId}:${triggerCount}`;

export const queuedAvailableKey = (workItemId: string, revision: number): string =>
  `work_queue:queued_available:${workItemId}:${revision}`;

/** Once per deadline: a new recheck_at makes a new key. */
export const recheckKey = (workItemId: string, recheckAt: string): string =>
  `work_queue:work_item_recheck:${workItemId}:${epochMicros(recheckAt)}`;
