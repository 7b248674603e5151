// Original file: proto/agent_runtime.proto


/**
 * The records of each collection that left the live state with the items.
 */
export interface ArchivedCounts {
  'messages'?: (number);
  'turns'?: (number);
  'rounds'?: (number);
  'briefs'?: (number);
  'delivery_summaries'?: (number);
  'emitted_tick_keys'?: (number);
  'tasks'?: (number);
  'timers'?: (number);
  'waiting_intents'?: (number);
}

/**
 * The records of each collection that left the live state with the items.
 */
export interface ArchivedCounts__Output {
  'messages': (number);
  'turns': (number);
  'rounds': (number);
  'briefs': (number);
  'delivery_summaries': (number);
  'emitted_tick_keys': (number);
  'tasks': (number);
  'timers': (number);
  'waiting_intents': (number);
}
