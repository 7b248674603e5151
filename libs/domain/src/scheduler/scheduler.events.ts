import type { Posture } from '../agent/agent.state';
import { eventGuard } from '../shared/event-guard';
import type { DecisionRecord, TickReason } from './decision';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

/** One scheduler decision and the `now` it was computed at (replay recomputes it from the state before this event). */
export type SchedulerDecisionRecorded = {
  type: 'SchedulerDecisionRecorded';
  data: { agent_id: string; decision: DecisionRecord; at: string };
};

/** A system tick with its idempotency key; the tick itself is the MessageQueued that follows. */
export type SystemTickEmitted = {
  type: 'SystemTickEmitted';
  data: {
    agent_id: string;
    message_id: string;
    reason: TickReason;
    idempotency_key: string;
    work_item_id: string | null;
    at: string;
  };
};

/** A recorded Sleep: the next idle decision is StayIdle; any new input wakes the agent. */
export type AgentSlept = {
  type: 'AgentSlept';
  data: { agent_id: string; previous_posture: Posture; posture: 'asleep'; at: string };
};

export type SchedulerEvent = SchedulerDecisionRecorded | SystemTickEmitted | AgentSlept;

export const isSchedulerEvent = eventGuard<SchedulerEvent>([
  'SchedulerDecisionRecorded',
  'SystemTickEmitted',
  'AgentSlept',
]);
