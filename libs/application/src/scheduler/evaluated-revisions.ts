import { LRUCache } from 'lru-cache';

/** Agents whose last evaluated revision is remembered (least recently evaluated forgotten first). */
export const DEFAULT_EVALUATED_REVISIONS = 50_000;

/**
 * The stream revision of the state each agent was last evaluated on, by this worker, and the
 * agents waiting for an evaluation only because the subscription delivered their events.
 *
 * An evaluation is a function of the agent's state and the time, and what the time will change
 * (a timer, a lease, a recheck) is in the agenda from that evaluation's `nextDueAt`. So an event
 * at or before the revision an evaluation already saw (typically the worker's own writes, coming
 * back through the subscription) asks for nothing new: evaluating again decides the same on the
 * same state. Every other reason (a later event, a deadline, a start, a gained shard, a retry)
 * still evaluates. A forgotten agent (bounded memory) or an event without a revision is simply
 * evaluated again, as before.
 */
export class EvaluatedRevisions {
  private readonly evaluated: LRUCache<string, bigint>;
  /** Pending agents asked for by events only: the highest revision asked for. */
  private readonly byEvents = new Map<string, bigint>();

  constructor(max = DEFAULT_EVALUATED_REVISIONS) {
    this.evaluated = new LRUCache<string, bigint>({ max });
  }

  /** The worker evaluated the agent on its state at `revision` (null or undefined: not known, nothing recorded). */
  record(agentId: string, revision: string | bigint | null | undefined): void {
    if (revision === null || revision === undefined) this.evaluated.delete(agentId);
    else this.evaluated.set(agentId, BigInt(revision));
  }

  /** True when the agent's last evaluation saw the event at `revision` (false when either is unknown). */
  covers(agentId: string, revision: bigint | undefined): boolean {
    if (revision === undefined) return false;
    const seen = this.evaluated.get(agentId);
    return seen !== undefined && revision <= seen;
  }

  /**
   * An event of the agent asks for an evaluation. `pending`: the agent already waits for one;
   * when that wait has another reason, the event adds nothing to it.
   */
  askedByEvent(agentId: string, revision: bigint | undefined, pending: boolean): void {
    if (revision === undefined) return this.askedOtherwise(agentId);
    const asked = this.byEvents.get(agentId);
    if (pending && asked === undefined) return;
    this.byEvents.set(agentId, asked === undefined || revision > asked ? revision : asked);
  }

  /** Any other reason: the next evaluation happens whatever the last one saw. */
  askedOtherwise(agentId: string): void {
    this.byEvents.delete(agentId);
  }

  /**
   * The agent's pending evaluation is about to run: false when only events asked for it and the
   * last evaluation (finished since they arrived) saw all of them, so it is not needed.
   */
  take(agentId: string): boolean {
    const asked = this.byEvents.get(agentId);
    this.byEvents.delete(agentId);
    return asked === undefined || !this.covers(agentId, asked);
  }

  /** The agent left this worker (a lost shard): nothing it asked for is pending any more. */
  drop(agentId: string): void {
    this.byEvents.delete(agentId);
  }
}
