/**
 * What the read models include (read-your-writes, docs/decisions/0023): per projection, its
 * checkpoint and the agents a poison event parked there. An agent's reads include position P
 * once every projection's checkpoint is at or past P and none of them holds the agent's events
 * at or before P (a parked agent's events from its letter on are held, ADR 0015).
 */
export interface ProjectionCoverage {
  projection: string;
  /** The position of the last event applied (-1 before any). */
  checkpoint: bigint;
  /** Parked agents: the position of the dead letter that parked each (its events from there on are held). */
  parked: ReadonlyMap<string, bigint>;
}

/** Where the coverage comes from: the projection runner of this process, or the database (another process runs it). */
export interface CoverageSource {
  /** The newest coverage known, without IO. */
  current(): readonly ProjectionCoverage[];
  /** Called after every change of `current()`; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Resolves once `current()` reflects the database (a listener connected and read once); idempotent. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Why a read is not covered yet: one entry per projection that is short of the position. */
export interface ProjectionLag {
  projection: string;
  /** Its checkpoint (decimal string; -1 before any event). */
  checkpoint: string;
  /** `behind`: the checkpoint has not reached the position; `agent_parked`: a poison event holds the agent's events. */
  reason: 'behind' | 'agent_parked';
  /** For `agent_parked`: the position of the dead letter that parked the agent. */
  parked_at: string | null;
}

/**
 * The projections short of `position` for `agentId` (null: a read across agents, which waits on
 * the checkpoints alone); empty when the read models include it. A projection the source does
 * not know yet (no checkpoint row) is behind.
 */
export function lagsOf(
  coverage: readonly ProjectionCoverage[],
  projections: readonly string[],
  agentId: string | null,
  position: bigint,
): ProjectionLag[] {
  const lags: ProjectionLag[] = [];
  for (const projection of projections) {
    const known = coverage.find((c) => c.projection === projection);
    const checkpoint = known?.checkpoint ?? -1n;
    if (checkpoint < position) {
      lags.push({ projection, checkpoint: checkpoint.toString(), reason: 'behind', parked_at: null });
      continue;
    }
    const letter = agentId === null ? undefined : known?.parked.get(agentId);
    if (letter !== undefined && letter <= position)
      lags.push({
        projection,
        checkpoint: checkpoint.toString(),
        reason: 'agent_parked',
        parked_at: letter.toString(),
      });
  }
  return lags;
}
