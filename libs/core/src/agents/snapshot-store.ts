/** Command ids recently applied to an agent, oldest first: `[command_id, first_revision, last_revision]`. */
export type RecentCommands = Array<[string, string, string]>;

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
