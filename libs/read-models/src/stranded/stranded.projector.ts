import { type AgentState, compareInstants, delegationFacts, strandingWatches } from '@app/domain';
import type { ProjectedEvent, Projector, ProjectionInput, RowWrite } from '../projection/projector';

/** The instant the agent's state was reached: the event's own time (the runtime's clock), else when it was stored. */
export function stateInstant(event: ProjectedEvent): string {
  const at = event.data.at;
  return typeof at === 'string' ? at : event.recorded_at;
}

/**
 * The stranded-work read model (migration 0017): one row per agent, replaced at each of its
 * events by the domain's stranding watches of the state after it. The watches carry no clock
 * and no threshold (the queries apply both), so a rebuild writes the same rows.
 */
export const strandedWorkProjector: Projector<AgentState> = {
  name: 'stranded_work',
  tables: [
    {
      name: 'stranded_work',
      key: ['agent_id'],
      columns: ['agent_id', 'watches', 'delegations', 'earliest_since'],
    },
  ],
  project({ event, after }: ProjectionInput<AgentState>): RowWrite[] {
    if (after.agent_id === null) return [];
    const watches = strandingWatches(after, stateInstant(event));
    const earliest = watches.reduce<string | null>(
      (soonest, w) => (soonest === null || compareInstants(w.since, soonest) < 0 ? w.since : soonest),
      null,
    );
    return [
      {
        table: 'stranded_work',
        row: { agent_id: after.agent_id, watches, delegations: delegationFacts(after), earliest_since: earliest },
      },
    ];
  },
};
