import type { TimerRecord } from './timer.state';
import type { TimerCancelled, TimerCancelReason, TimerCreated } from './timer.events';

export type NewTimer = Omit<TimerCreated['data'], 'agent_id' | 'at'>;

export function timerCreated(agentId: string, timer: NewTimer, at: string): TimerCreated {
  return { type: 'TimerCreated', data: { agent_id: agentId, ...timer, at } };
}

export function timerCancelled(
  agentId: string,
  timer: TimerRecord,
  reason: TimerCancelReason,
  at: string,
): TimerCancelled {
  return {
    type: 'TimerCancelled',
    data: {
      agent_id: agentId,
      timer_id: timer.id,
      work_item_id: timer.work_item_id,
      intent_id: timer.intent_id,
      reason,
      at,
    },
  };
}
