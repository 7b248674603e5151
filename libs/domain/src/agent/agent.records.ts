import type { AgentState } from './agent.state';

/** The keyed record collections of AgentState that the slices evolve. */
type Collection =
  | 'waiting_intents' | 'tasks' | 'messages' | 'timers' | 'turns' | 'rounds' | 'briefs' | 'delivery_summaries';
type RecordOf<K extends Collection> = AgentState[K][string];

/** The record under `id` (own keys only: an id like `constructor` is not an Object.prototype member), or undefined. */
export function recordOf<T>(records: Readonly<Record<string, T>>, id: string | null | undefined): T | undefined {
  return typeof id === 'string' && Object.hasOwn(records, id) ? records[id] : undefined;
}

/** A new state with `record` under `id`; every other record keeps its identity (projectors diff by reference). */
export function putRecord<K extends Collection>(state: AgentState, key: K, id: string, record: RecordOf<K>): AgentState {
  return { ...state, [key]: { ...state[key], [id]: record } };
}

/** Applies `change` to an existing record; an event about an unknown record leaves the state as it is. */
export function changeRecord<K extends Collection>(
  state: AgentState,
  key: K,
  id: string,
  change: (record: RecordOf<K>) => RecordOf<K>,
): AgentState {
  const record = recordOf(state[key] as Record<string, RecordOf<K>>, id);
  return record === undefined ? state : putRecord(state, key, id, change(record));
}
