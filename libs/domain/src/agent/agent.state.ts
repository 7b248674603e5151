import type { MessageRecord } from '../queue/message.state';
import { RecordMap, recordMapOf } from '../shared/record-map';
import { initialProgress, type ProgressState } from './progress.state';
import { emptyIndex, type SchedulingIndex } from './scheduling-index';
import type { RecordedDecision } from '../scheduler/decision';
import type { TaskRecord } from '../task/task.state';
import type { TimerRecord } from '../timer/timer.state';
import type { BriefRecord, DeliverySummaryRecord, RoundRecord, TurnRecord } from '../turn/turn.state';
import type { WaitingIntentRecord } from '../waiting-intent/waiting-intent.state';
import type { WakeHintRecord } from '../wake-hint/wake-hint.state';
import type { WorkItem } from '../work-item/work-item.state';
import type { DelegationRecord, SpawnRecord } from '../delegation/delegation.state';

export type Posture = 'booting' | 'awake_idle' | 'awake_running' | 'asleep' | 'paused' | 'stopped';

// ---- Records of the other slices live next to their slice and are re-exported here, so
// ---- `AgentState` stays one JSON-serialisable value with every record type in reach.

export type {
  DeliveryMode,
  TriggerProvenance,
  TriggerVia,
  WaitingIntentCancelReason,
  WaitingIntentRecord,
  WaitingIntentStatus,
  WaitScope,
  WaitWake,
} from '../waiting-intent/waiting-intent.state';
export type { TaskRecord, TaskStatus, TerminalTaskStatus, WaitPolicy } from '../task/task.state';
export type {
  MessageAuthority,
  MessageBody,
  MessageKind,
  MessagePriority,
  MessageRecord,
  MessageStatus,
} from '../queue/message.state';
export type { TimerRecord, TimerStatus } from '../timer/timer.state';
export type { WakeHintDisposition, WakeHintRecord } from '../wake-hint/wake-hint.state';

export type {
  BriefKind,
  BriefRecord,
  DeliveryEvidence,
  DeliverySummaryRecord,
  Promotion,
  RecoveryCause,
  RecoveryClassification,
  RoundCompletion,
  RoundRecord,
  TerminalKind,
  ToolCall,
  TurnRecord,
  TurnTerminalRecord,
} from '../turn/turn.state';
export type { DecisionRecord, RecordedDecision } from '../scheduler/decision';
export type {
  DelegationRecord,
  DelegationRole,
  DelegationState,
  SpawnRecord,
  TerminalDelegationState,
  WorkspaceMode,
} from '../delegation/delegation.state';

/**
 * The state of one agent stream, folded from its events by `evolve`. Records are kept in
 * RecordMaps (structural sharing, insertion order); `JSON.stringify` writes them as plain
 * objects and `reviveAgentState` reads such JSON back.
 */
export type AgentState = {
  /** null until `AgentRegistered`: every other command is refused before it. */
  agent_id: string | null;
  registered_at: string | null;
  posture: Posture;
  /** Durable focus: at most one open work item. */
  current_work_item_id: string | null;
  work_items: RecordMap<WorkItem>;
  /** Number of events folded into this state, known or not (= stream revision + 1). */
  version: number;

  waiting_intents: RecordMap<WaitingIntentRecord>;
  tasks: RecordMap<TaskRecord>;
  messages: RecordMap<MessageRecord>;
  /** Ids of the messages whose status is `queued`, in arrival order (bands: `queuedMessagesInOrder`). */
  queue: string[];
  timers: RecordMap<TimerRecord>;
  turns: RecordMap<TurnRecord>;
  open_turn_id: string | null;
  turn_index: number;
  pending_wake_hint: WakeHintRecord | null;
  /** Scheduler tick idempotency keys already emitted (key -> emitted at). */
  emitted_tick_keys: RecordMap<string>;
  delivery_summaries: RecordMap<DeliverySummaryRecord>;
  /** Assistant rounds of every turn, keyed by round id (process trace; tool calls are facts). */
  rounds: RecordMap<RoundRecord>;
  briefs: RecordMap<BriefRecord>;
  /** The newest SchedulerDecisionRecorded (a decision equal to it is not recorded again unless it has effects). */
  last_decision: RecordedDecision | null;
  /** Derived from the records above by evolve, so a decision never scans every item (scheduling-index.upkeep.ts). */
  scheduling_index: SchedulingIndex;
  /** Folded by evolve for the reminders: the round clock, the newest work-item mutation, todo marks (progress.ts). */
  progress: ProgressState;
  /** Delegations both ways, by delegation id (docs/domain-contract.md §11). */
  delegations: RecordMap<DelegationRecord>;
  /** How this agent was spawned (SpawnAgent), or null for an agent registered directly. */
  spawned: SpawnRecord | null;
};

/**
 * Version of the AgentState shape: bump it when the shape changes, so snapshots of an older
 * shape are ignored (they are a cache). 2: turns, rounds, briefs, delivery evidence, last decision.
 * 3: the scheduling index. 4: the event ids a waiting intent counted. 5: timers' missed_periods.
 * 6: task leases (expected_duration_ms, lease_expires_at, last_heartbeat_at, interrupt_reason).
 * 7: plan descriptors without the absolute `path` (only `relative_path`).
 * 8: `progress` (the round clock and todo marks of the reminders, the newest turn).
 * 9: WorkItemsArchived takes finished records out of the state (a snapshot folded by code that
 * ignored it would still hold them).
 * 10: delegations and the spawn record.
 * 11: a processed message keeps no body, a closed round no text (its `text_digest` instead) and
 * a round its event's `revision` (both texts stay in the stream; a shape-10 snapshot still has them).
 */
export const AGENT_STATE_SHAPE_VERSION = 11;

export function initialAgentState(): AgentState {
  return {
    agent_id: null,
    registered_at: null,
    posture: 'booting',
    current_work_item_id: null,
    work_items: RecordMap.empty(),
    version: 0,
    waiting_intents: RecordMap.empty(),
    tasks: RecordMap.empty(),
    messages: RecordMap.empty(),
    queue: [],
    timers: RecordMap.empty(),
    turns: RecordMap.empty(),
    open_turn_id: null,
    turn_index: 0,
    pending_wake_hint: null,
    emitted_tick_keys: RecordMap.empty(),
    delivery_summaries: RecordMap.empty(),
    rounds: RecordMap.empty(),
    briefs: RecordMap.empty(),
    last_decision: null,
    scheduling_index: emptyIndex(),
    progress: initialProgress(),
    delegations: RecordMap.empty(),
    spawned: null,
  };
}

/** The record collections of AgentState: plain objects in its JSON, RecordMaps in memory. */
const RECORD_COLLECTIONS = [
  'work_items',
  'waiting_intents',
  'tasks',
  'messages',
  'timers',
  'turns',
  'emitted_tick_keys',
  'delivery_summaries',
  'rounds',
  'briefs',
  'delegations',
] as const;

/**
 * An AgentState back from its JSON (a snapshot): the record collections become RecordMaps
 * again, in the key order of the JSON objects. Everything else is plain data already.
 */
export function reviveAgentState(json: unknown): AgentState {
  const plain = json as Record<string, unknown>;
  const state = { ...plain } as Record<string, unknown>;
  for (const key of RECORD_COLLECTIONS)
    state[key] = recordMapOf(plain[key] as Record<string, unknown> | RecordMap<unknown> | undefined);
  return state as AgentState;
}
