import type { MessageBody } from '../queue/message.state';

// NOTE: stored format. These literals appear in events, snapshots and read models.

/** ignored: the agent is stopped; coalesced: kept pending (a turn is open or the queue is not empty); triggered: emitted as a system_tick. */
export type WakeHintDisposition = 'triggered' | 'coalesced' | 'ignored';

/** The pending (coalesced) wake hint: the newest one replaces it. */
export type WakeHintRecord = {
  source: string;
  reason: string;
  body: MessageBody | null;
  created_at: string;
  /** Set when the hint comes from a triggered waiting intent. */
  intent_id: string | null;
};
