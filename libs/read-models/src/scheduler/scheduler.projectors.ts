import {
  type AgentState,
  type BriefRecord,
  closureOf,
  type DeliverySummaryRecord,
  decisionViewOfEvent,
  toBriefView,
  toDeliverySummaryView,
} from '@app/domain';
import type { Projector, ProjectionInput, RowWrite } from '../projection/projector';
import { recordProjector } from '../records/record-projector';
import { SCHEDULER_STATE_COLUMNS, schedulerStateRow, toSchedulerStateView } from './scheduler-state.view';

// The scheduler's read models (migration 0008). Every value comes from the domain's views over the
// folded state, so a row is what the command side would answer at that event.

/** One row per agent, rewritten at every event of its stream (the projection is as of the event's recorded_at). */
export const schedulerStateProjector: Projector<AgentState> = {
  name: 'scheduler_state',
  tables: [{ name: 'scheduler_state', key: ['agent_id'], columns: SCHEDULER_STATE_COLUMNS }],
  project({ event, after }: ProjectionInput<AgentState>): RowWrite[] {
    if (after.agent_id === null) return [];
    return [
      {
        table: 'scheduler_state',
        row: schedulerStateRow(toSchedulerStateView(after, event.revision, event.recorded_at)),
      },
    ];
  },
};

/** A row per SchedulerDecisionRecorded, read back from the folded state (upcast and typed): the decision view with its closure, and its revision. */
export const decisionsProjector: Projector<AgentState> = {
  name: 'decisions',
  tables: [
    {
      name: 'decisions',
      key: ['agent_id', 'revision'],
      columns: ['agent_id', 'revision', 'kind', 'recorded_at', 'view'],
    },
  ],
  project({ event, before, after }: ProjectionInput<AgentState>): RowWrite[] {
    const recorded = after.last_decision;
    if (event.type !== 'SchedulerDecisionRecorded' || after.agent_id === null || recorded === null) return [];
    const revision = event.revision.toString();
    // The closure of the state the decision was decided on (a view: the event does not hold it).
    const view = { ...decisionViewOfEvent(recorded, closureOf(before)), revision };
    return [
      {
        table: 'decisions',
        row: { agent_id: after.agent_id, revision, kind: view.kind, recorded_at: recorded.at, view },
      },
    ];
  },
};

export const briefsProjector = recordProjector<BriefRecord>({
  name: 'briefs',
  table: 'briefs',
  records: (state) => state.briefs,
  columns: ['kind', 'work_item_id', 'created_at'],
  row: (_state, brief) => ({
    kind: brief.kind,
    work_item_id: brief.work_item_id,
    created_at: brief.created_at,
    view: toBriefView(brief),
  }),
});

export const deliverySummariesProjector = recordProjector<DeliverySummaryRecord>({
  name: 'delivery_summaries',
  table: 'delivery_summaries',
  records: (state) => state.delivery_summaries,
  columns: ['work_item_id', 'created_at'],
  row: (_state, summary) => ({
    work_item_id: summary.work_item_id,
    created_at: summary.created_at,
    view: toDeliverySummaryView(summary),
  }),
});

export const SCHEDULER_PROJECTORS = [
  schedulerStateProjector,
  decisionsProjector,
  briefsProjector,
  deliverySummariesProjector,
];
