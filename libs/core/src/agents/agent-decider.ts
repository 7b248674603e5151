/** What the agent stream's fold needs from the domain: an event-sourced decider. */
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
