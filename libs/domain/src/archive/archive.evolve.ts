import type { AgentState } from '../agent/agent.state';
import { RecordMap } from '../shared/record-map';
import type { ArchiveEvent } from './archive.events';
import { archiveSelection } from './archive.selection';

const without = <T>(map: RecordMap<T>, ids: ReadonlySet<string>): RecordMap<T> =>
  ids.size === 0 ? map : RecordMap.from(map.entries().filter(([id]) => !ids.has(id)));

/**
 * The named work items and the records the cut-off selects leave the state (kept in insertion
 * order). A pass over the collections: an archive is rare, and every later load is smaller.
 */
export function evolveArchive(state: AgentState, event: ArchiveEvent): AgentState {
  const { completed_before, work_item_ids } = event.data;
  const s = archiveSelection(state, completed_before, work_item_ids);
  return {
    ...state,
    work_items: without(state.work_items, new Set(work_item_ids)),
    messages: without(state.messages, s.messages),
    turns: without(state.turns, s.turns),
    rounds: without(state.rounds, s.rounds),
    briefs: without(state.briefs, s.briefs),
    delivery_summaries: without(state.delivery_summaries, s.delivery_summaries),
    emitted_tick_keys: without(state.emitted_tick_keys, s.emitted_tick_keys),
    tasks: without(state.tasks, s.tasks),
    timers: without(state.timers, s.timers),
    waiting_intents: without(state.waiting_intents, s.waiting_intents),
  };
}
