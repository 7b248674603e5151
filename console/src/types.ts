/** The wire shapes the console reads (docs/api.md; snake_case as on the wire). Only what it shows. */

export type CandidateClass =
  | 'current_runnable'
  | 'triggered_blocked'
  | 'queued_runnable'
  | 'waiting_for_operator'
  | 'blocked'
  | 'completed_recent';

export type Decision = {
  kind: string;
  reason: string;
  model_reentry: boolean;
  liveness_only: boolean;
  message_id: string | null;
  work_item_id: string | null;
  task_id: string | null;
  idempotency_key: string | null;
  evidence: string[];
  recorded_at: string | null;
  revision?: string;
  /** The closure on the state it was decided on (absent on decisions projected before closure existed). */
  closure?: Closure;
};

/** How the agent's work stands (docs/domain-contract.md §2, Closure). */
export type Closure = {
  closure: 'completed' | 'continuable' | 'failed' | 'waiting';
  reason: string;
  evidence: string[];
};

export type Todo = { text: string; state: 'pending' | 'in_progress' | 'completed' };

export type WaitingIntent = {
  id: string;
  scope: 'work_item' | 'agent';
  work_item_id: string | null;
  wake: string;
  reason: string;
  source: string | null;
  resource: string | null;
  status: string;
  trigger_count: number;
  last_triggered_at: string | null;
  fire_at: string | null;
  created_at: string;
};

export type WorkItem = {
  id: string;
  agent_id: string;
  objective: string;
  state: 'open' | 'completed';
  plan_status: string;
  blocked_by: string | null;
  recheck_at: string | null;
  revision: number;
  todo_list: Todo[];
  current_todo: Todo | null;
  plan_artifact: {
    relative_path?: string;
    path: string;
    byte_size: number;
    updated_at: string;
    preview: string;
    preview_complete: boolean;
  };
  readiness: string;
  scheduling_state: string;
  candidate_class: CandidateClass;
  is_current: boolean;
  waiting_intents: WaitingIntent[];
  completion_report: { text: string; source: string } | null;
  created_at: string;
  updated_at: string;
};

export type AgentOverview = {
  agent_id: string;
  posture: string;
  revision: string | null;
  current_work_item: {
    id: string;
    objective: string;
    readiness: string;
    current_todo: Todo | null;
    blocked_by: string | null;
  } | null;
  candidate_counts: Record<CandidateClass, number>;
  queued_messages: number;
  active_intents: number;
  triggered_intents: number;
  active_tasks: number;
  open_turn: { turn_id: string; lease_expires_at: string } | null;
  last_decision: Decision | null;
};

export type SchedulerState = {
  agent_id: string;
  posture: string;
  revision: string;
  projected_at: string;
  current_work_item: { id: string; readiness: string; scheduling_state: string } | null;
  open_turn: { turn_id: string; turn_index: number; lease_expires_at: string; lease_expired: boolean } | null;
  queue: { count: number; head: { message_id: string; kind: string; priority: string; reason: string } | null };
  pending_wake_hint: { source: string; reason: string; created_at: string } | null;
  next_due_at: string | null;
  next_decision: Decision;
  last_decision: Decision | null;
  projection_lag: { checkpoint: string; head: string | null; caught_up: boolean };
  /** The posture, or `awaiting_task` when the agent awaits a task and nothing else can run. */
  runtime_posture: string;
  closure: Closure;
};

export type BoardColumn = { candidate_class: CandidateClass; total: number; items: WorkItem[] };
export type Board = { agent_id: string; revision: string; projected_at: string; columns: BoardColumn[] };

export type Task = {
  id: string;
  kind: string;
  status: string;
  wait_policy: string;
  work_item_id: string | null;
  summary: string | null;
  detail: string | null;
  terminal: boolean;
  created_at: string;
  updated_at: string;
};
export type Timer = {
  id: string;
  status: string;
  fire_at: string;
  work_item_id: string | null;
  resume_text: string | null;
  intent_id: string | null;
};

export type AgentEvent = {
  revision: string;
  type: string;
  data: Record<string, unknown>;
  metadata: { actor?: string; command_id?: string; correlation_id?: string; causation_id?: string };
  recorded_at: string;
};

export type AttentionItem = {
  agent_id: string;
  waiting_since: string;
  reasons: Array<'needs_input' | 'operator_wait'>;
  operator_waits: Array<{
    id: string;
    reason: string;
    created_at: string;
    trigger_count: number;
    last_triggered_at: string | null;
  }>;
  work_item: WorkItem;
};

export type List<T> = { items: T[]; total: number };

/** GET /v1/agents/{a}/delegations: one delegation as this agent sees it (docs/domain-contract.md §11). */
export type Delegation = {
  delegation_id: string;
  direction: 'child' | 'parent';
  parent_agent_id: string;
  parent_work_item_id: string;
  child_agent_id: string;
  child_work_item_id: string | null;
  state: string;
  counterpart_state: string | null;
  result_summary: string | null;
  reason: string | null;
  label: string;
  task_id: string;
  delegated_at: string;
  ended_at: string | null;
  flagged: boolean;
  flag: string | null;
};

/** GET /v1/stranded (ADR 0036). */
export type StrandedKind =
  | 'runnable_without_decision'
  | 'model_turn_waiting_for_host'
  | 'turn_past_lease'
  | 'task_past_expected_end'
  | 'timer_overdue'
  | 'timer_wait_without_timer'
  | 'task_wait_without_task'
  | 'blocked_without_wait'
  | 'delegation_counterpart_missing'
  | 'asleep_with_queued_messages';

export type StrandedEntry = {
  agent_id: string;
  kind: StrandedKind;
  subject: {
    work_item_id: string | null;
    intent_id: string | null;
    task_id: string | null;
    timer_id: string | null;
    turn_id: string | null;
    message_id: string | null;
    delegation_id: string | null;
  };
  evidence: string[];
  since: string;
  stranded_at: string;
  age_ms: number;
};

/** GET /v1/agents/{a}/work-items/{w}/why: why the item is (not) next (docs/api.md, "Why not"). */
export type WorkItemWhy = {
  work_item_id: string;
  now: string;
  verdict: string;
  summary: string;
  standing: { rung: number; rule: string; rank: number | null; of: number | null } | null;
  ladder: Array<{
    rung: number;
    rule: string;
    applies: boolean;
    kind: string | null;
    reason: string | null;
    concerns_item: boolean;
  }>;
  ranks_before: Array<{ rung: number; rule: string; kind: string; id: string; why: string }>;
  ranks_before_total: number;
  blockers: Array<{ kind: string; id: string | null; until: string | null; detail: string }>;
  next_events: Array<{ event: string | null; id: string | null; at: string | null; description: string }>;
};
