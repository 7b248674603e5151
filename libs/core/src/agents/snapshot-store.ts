/**
 * A command id recently applied to an agent: `[command_id, first_revision, last_revision]`, then
 * the fingerprint of its request when one was kept (null: none), then `"scheduler"` for the
 * scheduler's own commands, which have a window of their own (docs/decisions/0016).
 */
export type RecentCommand = [string, string, string, (string | null)?, 'scheduler'?];

/** Command ids recently applied to an agent, oldest first (callers' and the scheduler's). */
export type RecentCommands = RecentCommand[];

export interface AgentSnapshot<S> {
  agent_id: string;
  /** Stream revision of the last event folded into `state`. */
  revision: bigint;
  state_version: number;
  state: S;
  commands: RecentCommands;
}

/** Agent snapshots: a cache of the fold (libs/read-models stores them in Postgres). */
export interface SnapshotStore {
  load<S>(agentId: string, stateVersion: number): Promise<AgentSnapshot<S> | null>;
  save<S>(snapshot: AgentSnapshot<S>): Promise<void>;
}

export const SNAPSHOT_STORE = Symbol('SNAPSHOT_STORE');
