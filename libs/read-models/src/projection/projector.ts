/**
 * A projector turns one agent event into row writes. It is pure: the runner folds the agent's
 * state once per event and hands every projector the state before and after it, so derived
 * columns (readiness, candidate class, ...) are computed by the domain's views, never stored
 * in events.
 */
export interface ProjectedEvent {
  agent_id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  revision: bigint;
  position: bigint;
  recorded_at: string;
}

export interface ProjectionInput<S> {
  event: ProjectedEvent;
  before: S;
  after: S;
}

/** A table a projector writes: rows are upserted by `key`, guarded by `last_position`. */
export interface TableSpec {
  name: string;
  key: string[];
  /** Every column written, keys included; `last_position` is added by the runner. */
  columns: string[];
  /**
   * Fields of the `view` column a row keeps when a write leaves them null: what the state no
   * longer holds (a processed message's body) stays as the row had it.
   */
  keptViewFields?: string[];
}

export interface RowWrite {
  table: string;
  row: Record<string, unknown>;
}

export interface Projector<S> {
  name: string;
  tables: TableSpec[];
  project(input: ProjectionInput<S>): RowWrite[];
}
