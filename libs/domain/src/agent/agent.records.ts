import type { RecordMap } from '../shared/record-map';
import type { WorkItem } from '../work-item/work-item.state';
import type {
  AgentState,
  BriefRecord,
  DeliverySummaryRecord,
  MessageRecord,
  RoundRecord,
  TaskRecord,
  TimerRecord,
  TurnRecord,
  WaitingIntentRecord,
} from './agent.state';

/** The keyed record collections of AgentState that the slices evolve, and their record types. */
type Records = {
  work_items: WorkItem;
  waiting_intents: WaitingIntentRecord;
  tasks: TaskRecord;
  messages: MessageRecord;
  timers: TimerRecord;
  turns: TurnRecord;
  rounds: RoundRecord;
  briefs: BriefRecord;
  delivery_summaries: DeliverySummaryRecord;
};
type Collection = keyof Records;
type RecordOf<K extends Collection> = Records[K];

const recordsOf = <K extends Collection>(state: AgentState, key: K) => state[key] as unknown as RecordMap<RecordOf<K>>;

/** A new state with `record` under `id`; every other record keeps its identity (projectors diff by reference). */
export function putRecord<K extends Collection>(
  state: AgentState,
  key: K,
  id: string,
  record: RecordOf<K>,
): AgentState {
  return { ...state, [key]: recordsOf(state, key).set(id, record) };
}

/** Applies `change` to an existing record; an event about an unknown record leaves the state as it is. */
export function changeRecord<K extends Collection>(
  state: AgentState,
  key: K,
  id: string,
  change: (record: RecordOf<K>) => RecordOf<K>,
): AgentState {
  const record = recordsOf(state, key).get(id);
  return record === undefined ? state : putRecord(state, key, id, change(record));
}
