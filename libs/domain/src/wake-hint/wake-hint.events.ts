import type { MessageBody } from '../queue/message.state';
import { eventGuard } from '../shared/event-guard';
import type { WakeHintDisposition } from './wake-hint.state';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

export type WakeHintSubmitted = {
  type: 'WakeHintSubmitted';
  data: {
    agent_id: string;
    source: string;
    reason: string;
    body: MessageBody | null;
    /** Set when the hint is the delivery of a triggered waiting intent. */
    intent_id: string | null;
    disposition: WakeHintDisposition;
    /** The system_tick queued in the same decision (triggered only). */
    message_id: string | null;
    at: string;
  };
};

export type WakeHintEvent = WakeHintSubmitted;

export const isWakeHintEvent = eventGuard<WakeHintEvent>(['WakeHintSubmitted']);
