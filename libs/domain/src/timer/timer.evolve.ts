import { changeRecord, putRecord } from '../agent/agent.records';
import type { AgentState } from '../agent/agent.state';
import type { TimerEvent } from './timer.events';

export function evolveTimer(state: AgentState, event: TimerEvent): AgentState {
  switch (event.type) {
    case 'TimerCreated': {
      const { data } = event;
      return putRecord(state, 'timers', data.timer_id, {
        id: data.timer_id,
        fire_at: data.fire_at,
        status: 'scheduled',
        work_item_id: data.work_item_id,
        interval_ms: data.interval_ms,
        resume_text: data.resume_text,
        intent_id: data.intent_id,
        fire_count: 0,
        last_fired_at: null,
        missed_periods: 0,
        created_at: data.at,
        updated_at: data.at,
      });
    }
    case 'TimerCancelled':
      return changeRecord(state, 'timers', event.data.timer_id, (timer) => ({
        ...timer,
        status: 'cancelled',
        updated_at: event.data.at,
      }));
    case 'TimerFired': {
      const { data } = event;
      return changeRecord(state, 'timers', data.timer_id, (timer) => ({
        ...timer,
        status: data.next_fire_at === null ? 'fired' : 'scheduled',
        fire_at: data.next_fire_at ?? timer.fire_at,
        fire_count: data.fire_count,
        last_fired_at: data.fired_at,
        missed_periods: (timer.missed_periods ?? 0) + (data.missed_periods ?? 0),
        updated_at: data.at,
      }));
    }
  }
}
