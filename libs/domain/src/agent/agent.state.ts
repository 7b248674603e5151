import type { WorkItem } from '../work-item/work-item.state';

export type Posture = 'booting' | 'awake_idle' | 'awake_running' | 'asleep' | 'paused' | 'stopped';

// ---- Records owned by later slices. Declared now so those slices plug in without reshaping
// ---- AgentState; their deciders and evolvers fill them. Kept minimal on purpose.

export type WaitWake = 'operator_input' | 'task_result' | 'external' | 'timer';
export type WaitingIntentStatus = 'active' | 'cancelled' | 'resolved';

export type WaitingIntentRecord = {
  id: string;
  scope: 'work_item' | 'agent';
  work_item_id: string | null;
  wake: WaitWake;
  reason: string;
  source: string | null;
  resource: string | null;
  condition: string | null;
  fire_at: string | null;
  delivery_mode: 'wake_hint' | 'enqueue_message';
  status: WaitingIntentStatus;
  /** "Triggered" is derived: trigger_count > 0. */
  trigger_count: number;
  last_triggered_at: string | null;
  /** Hash of the capability token; the token itself is never stored. */
  callback_token_hash: string | null;
  created_at: string;
  updated_at: string;
};

export type TaskStatus =
  | 'queued' | 'running' | 'cancelling' | 'completed' | 'failed' | 'cancelled' | 'interrupted';
export type TaskRecord = {
  id: string;
  kind: string;
  status: TaskStatus;
  wait_policy: 'background' | 'blocking';
  work_item_id: string | null;
};

export type MessageRecord = {
  id: string;
  kind: string;
  priority: 'interject' | 'next' | 'normal' | 'background';
  status: 'queued' | 'dequeued' | 'processed' | 'interjected' | 'aborted' | 'dropped';
  work_item_id: string | null;
};

export type TimerRecord = { id: string; fire_at: string; status: string; work_item_id: string | null };

export type TurnRecord = { turn_id: string; turn_index: number; message_id: string; work_item_id: string | null };

export type WakeHintRecord = { source: string; reason: string; body: string | null; created_at: string };

export type DeliverySummaryRecord = { id: string; work_item_id: string; text: string; created_at: string };

/** The state of one agent stream, folded from its events by `evolve`. */
export type AgentState = {
  /** null until `AgentRegistered`: every other command is refused before it. */
  agent_id: string | null;
  registered_at: string | null;
  posture: Posture;
  /** Durable focus: at most one open work item. */
  current_work_item_id: string | null;
  work_items: Record<string, WorkItem>;
  /** Number of events folded into this state, known or not (= stream revision + 1). */
  version: number;

  waiting_intents: Record<string, WaitingIntentRecord>;
  tasks: Record<string, TaskRecord>;
  messages: Record<string, MessageRecord>;
  /** Ids of queued messages in arrival order. */
  queue: string[];
  timers: Record<string, TimerRecord>;
  turns: Record<string, TurnRecord>;
  open_turn_id: string | null;
  turn_index: number;
  pending_wake_hint: WakeHintRecord | null;
  /** Scheduler tick idempotency keys already emitted (key -> emitted at). */
  emitted_tick_keys: Record<string, string>;
  delivery_summaries: Record<string, DeliverySummaryRecord>;
};

export function initialAgentState(): AgentState {
  return {
    agent_id: null,
    registered_at: null,
    posture: 'booting',
    current_work_item_id: null,
    work_items: {},
    version: 0,
    waiting_intents: {},
    tasks: {},
    messages: {},
    queue: [],
    timers: {},
    turns: {},
    open_turn_id: null,
    turn_index: 0,
    pending_wake_hint: null,
    emitted_tick_keys: {},
    delivery_summaries: {},
  };
}
