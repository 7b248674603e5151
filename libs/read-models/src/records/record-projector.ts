import type { AgentState, RecordMap } from '@app/domain';
import type { Projector, ProjectionInput, RowWrite } from '../projection/projector';

export interface RecordProjectorSpec<R> {
  name: string;
  table: string;
  /** The records of this kind in an agent's state, keyed by id. */
  records(state: AgentState): RecordMap<R>;
  /** The row of one record (`previous`: the record before the event): `agent_id` and `id` are added; `view` is the reply body. */
  row(state: AgentState, record: R, previous: R | undefined): { view: unknown } & Record<string, unknown>;
  /** Row columns besides agent_id, id, view. */
  columns: string[];
  /** Fields of `view` a row keeps when a write leaves them null (TableSpec.keptViewFields). */
  keptViewFields?: string[];
}

/**
 * A read model of one kind of agent record (waiting intents, tasks, timers, messages): a row
 * per record, rewritten when the record's object changed (the domain's evolve never mutates,
 * so identity is change). `changedSince` visits only what the event changed, not every record.
 */
export function recordProjector<R>(spec: RecordProjectorSpec<R>): Projector<AgentState> {
  return {
    name: spec.name,
    tables: [
      {
        name: spec.table,
        key: ['agent_id', 'id'],
        columns: ['agent_id', 'id', ...spec.columns, 'view'],
        ...(spec.keptViewFields && { keptViewFields: spec.keptViewFields }),
      },
    ],
    project({ before, after }: ProjectionInput<AgentState>): RowWrite[] {
      const previous = spec.records(before);
      const current = spec.records(after);
      if (previous === current || after.agent_id === null) return [];
      const agentId = after.agent_id;
      return current.changedSince(previous).map(([id, record]) => ({
        table: spec.table,
        row: { agent_id: agentId, id, ...spec.row(after, record, previous.get(id)) },
      }));
    },
  };
}
