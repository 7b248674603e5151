/** What the repository needs from the domain: an event-sourced decider. */
export interface DomainEvent {
  type: string;
  data: Record<string, unknown>;
}

export interface AgentDecider<S, E extends DomainEvent = DomainEvent> {
  initialState(agentId: string): S;
  evolve(state: S, event: E): S;
  /** Bump when the state's shape changes: older snapshots are then ignored. */
  stateVersion: number;
  /** The state a snapshot's JSON describes (JSON.stringify of a state, parsed back). */
  revive(json: unknown): S;
}

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

export interface SnapshotStore {
  load<S>(agentId: string, stateVersion: number): Promise<AgentSnapshot<S> | null>;
  save<S>(snapshot: AgentSnapshot<S>): Promise<void>;
}

export const SNAPSHOT_STORE = Symbol('SNAPSHOT_STORE');
export const AGENT_DECIDER = Symbol('AGENT_DECIDER');
