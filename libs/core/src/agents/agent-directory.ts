/** Where the scheduler worker finds the agents to look at after a restart (libs/read-models answers it). */
export interface AgentDirectory {
  /** Every registered agent (from the read model). */
  agentIds(): Promise<string[]>;
  /** Events after this position may belong to agents the read model does not know yet. */
  projectedUpTo(): Promise<bigint | null>;
  /**
   * One page of the scheduler's agenda (the scheduler_agenda read model, ADR 0038). Absent: the
   * worker falls back to evaluating every agent of `agentIds()` at start.
   */
  agenda?(query: AgendaQuery): Promise<AgendaPage>;
}

/** Which shards a query is for: the agent's shard is its shard key modulo `count`. */
export interface AgendaShards {
  count: number;
  held: readonly number[];
}

/**
 * `start`: the agents a scheduler must evaluate when it starts or gains shards (undecided, due by
 * `until`, parked); `due`: the agents whose deadline is in (`from`, `until`] (a moving horizon).
 */
export type AgendaQuery = ({ kind: 'start'; until: string } | { kind: 'due'; from: string; until: string }) & {
  /** Absent: every shard. */
  shards?: AgendaShards;
  /** The `next` of the previous page (absent: the first page). */
  cursor?: string | null;
  limit?: number;
};

export interface AgendaPage {
  /** `undecided`: evaluate now (undecided, parked, or without a row); else wait for `next_due_at`. */
  entries: Array<{ agent_id: string; next_due_at: string | null; undecided: boolean }>;
  /** The cursor of the next page; null after the last one. */
  next: string | null;
}

export const AGENT_DIRECTORY = Symbol('AGENT_DIRECTORY');
