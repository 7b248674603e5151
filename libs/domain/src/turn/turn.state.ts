import type { Warning } from '../shared/warnings';

// NOTE: stored format. These literals appear in events, snapshots and read models.
export type TerminalKind = 'completed' | 'aborted' | 'failed' | 'interrupted' | 'baseline_over_budget';
export const TERMINAL_KINDS: readonly TerminalKind[] = [
  'completed',
  'aborted',
  'failed',
  'interrupted',
  'baseline_over_budget',
];

/** How a turn's message was classified after an interruption (host death or an interrupted terminal). */
export type RecoveryClassification = 'requeued' | 'quarantined';
/** lease_expired: ExpireLease (the host died); host_interrupted: TurnTerminal{interrupted} from the host. */
export type RecoveryCause = 'lease_expired' | 'host_interrupted';

export type ToolCall = { tool_call_id: string; name: string };

/** Where a round's report went: the promoted summary and brief (ids derived from the round id). */
export type Promotion = { work_item_id: string; delivery_summary_id: string; brief_id: string };

/** A successful, transitioning CompleteWorkItem that named this round. */
export type RoundCompletion = {
  work_item_id: string;
  /** The item was the focus when CompleteWorkItem ran (only then can its report be promoted). */
  focused: boolean;
  unfinished_todo_count: number;
  pending_todo_count: number;
  in_progress_todo_count: number;
  at: string;
};

export type RoundRecord = {
  round_id: string;
  turn_id: string;
  /** The focus when the round was recorded (process trace binding). */
  work_item_id: string | null;
  /**
   * Trimmed; '' when the round had no text. null once the round is closed: the text stays in
   * its AssistantRoundRecorded event (at `revision`), the state keeps only `text_digest`.
   */
  text: string | null;
  /** `sha256:<hex>` of the text, set when the round closes (a repeated RecordRound is compared with it). */
  text_digest: string | null;
  /** The stream revision of its AssistantRoundRecorded (where the process trace reads the text back). */
  revision: number;
  /** Facts: recorded before the tools ran, never re-executed by the runtime. */
  tool_calls: ToolCall[];
  status: 'open' | 'closed';
  completions: RoundCompletion[];
  promotion: Promotion | null;
  /** The warnings of the promotion evaluation at close. */
  warnings: Warning[];
  recorded_at: string;
  closed_at: string | null;
};

export type TurnTerminalRecord = { terminal_kind: TerminalKind; last_assistant_message: string | null; at: string };

export type TurnRecord = {
  turn_id: string;
  turn_index: number;
  /** The message the turn serves (dequeued at start). */
  message_id: string;
  /** The focus bound at start (the turn binding; the durable focus may move during the turn). */
  work_item_id: string | null;
  /** The bound item's revision at start: the turn consumes its continue_active key. */
  work_item_revision: number | null;
  status: 'open' | 'closed';
  started_at: string;
  lease_ttl_ms: number;
  lease_expires_at: string;
  last_heartbeat_at: string | null;
  round_ids: string[];
  open_round_id: string | null;
  /** Rounds whose report was promoted: the turn's own final result brief is then suppressed. */
  promoted_round_ids: string[];
  terminal: TurnTerminalRecord | null;
  recovery: RecoveryClassification | null;
};

export type BriefKind = 'ack' | 'result' | 'failure';

export type BriefRecord = {
  id: string;
  kind: BriefKind;
  text: string;
  work_item_id: string | null;
  turn_id: string | null;
  round_id: string | null;
  created_at: string;
};

/** What a delivery summary keeps beside its text: the completion warnings (e.g. unfinished todos) and the round's tool calls. */
export type DeliveryEvidence = {
  source: 'report_promotion';
  warnings: Warning[];
  tool_call_ids: string[];
};

export type DeliverySummaryRecord = {
  id: string;
  work_item_id: string;
  text: string;
  created_at: string;
  turn_id: string | null;
  round_id: string | null;
  evidence: DeliveryEvidence;
};

/** A message interrupted this many times is dropped and quarantined instead of requeued. */
export const MAX_MESSAGE_INTERRUPTIONS = 3;

/** Derived ids (the decider stays pure without id inputs). Prefixes differ at a fixed position: no collisions. */
export const deliverySummaryIdFor = (roundId: string): string => `ds_${roundId}`;
export const roundBriefIdFor = (roundId: string): string => `brief_round_${roundId}`;
export const turnBriefIdFor = (turnId: string): string => `brief_turn_${turnId}`;
