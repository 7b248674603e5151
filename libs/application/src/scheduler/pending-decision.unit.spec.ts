import type { AgentState, SchedulerDecision } from '@app/domain';
import { pendingKeyedDecision } from './pending-decision';

const tick = (overrides: Partial<SchedulerDecision> = {}): SchedulerDecision =>
  ({
    kind: 'EmitSystemTick',
    reason: 'work_queue',
    model_reentry: false,
    liveness_only: false,
    message_id: null,
    work_item_id: 'w-1',
    task_id: null,
    idempotency_key: 'work_queue:queued_available:w-1:1',
    evidence: ['queued items: 1'],
    ...overrides,
  }) as SchedulerDecision;

const lastRecorded = (decision: SchedulerDecision | null) =>
  ({ last_decision: decision && { decision, at: '2026-01-01T00:00:00.000Z' } }) as unknown as AgentState;

describe('a keyed decision already recorded last (ADR 0039)', () => {
  it('is pending when the same decision is the last recorded one', () => {
    expect(pendingKeyedDecision(lastRecorded(tick()), tick())).toBe(true);
  });

  it('is pending with the same key and subject though its evidence changed with an unrelated event', () => {
    const now = tick({ evidence: ['queued items: 2'], reason: 'work_queue (2 queued)' });
    expect(pendingKeyedDecision(lastRecorded(tick()), now)).toBe(true);
  });

  it('is not pending under another key, another subject, an unkeyed decision whose evidence changed, or nothing recorded', () => {
    expect(
      pendingKeyedDecision(lastRecorded(tick()), tick({ idempotency_key: 'work_queue:queued_available:w-1:2' })),
    ).toBe(false);
    expect(pendingKeyedDecision(lastRecorded(tick()), tick({ work_item_id: 'w-2' }))).toBe(false);
    const unkeyed = tick({ kind: 'StayIdle', idempotency_key: undefined });
    expect(pendingKeyedDecision(lastRecorded(unkeyed), { ...unkeyed, evidence: ['other'] })).toBe(false);
    expect(pendingKeyedDecision(lastRecorded(null), tick())).toBe(false);
  });
});
