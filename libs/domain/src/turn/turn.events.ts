import { eventGuard } from '../shared/event-guard';
import type { Warning } from '../shared/warnings';
import type {
  BriefKind,
  DeliveryEvidence,
  Promotion,
  RecoveryCause,
  RecoveryClassification,
  TerminalKind,
  ToolCall,
} from './turn.state';

// NOTE: stored format. Type strings and snake_case data are a storage contract: never rename.

/** A model turn opened on a dequeued message, bound to the focus (and consuming its continue_active key). */
export type TurnStarted = {
  type: 'TurnStarted';
  data: {
    agent_id: string;
    turn_id: string;
    turn_index: number;
    message_id: string;
    work_item_id: string | null;
    work_item_revision: number | null;
    /** `work_queue:continue_active:<id>:<revision>` of the bound focus: a later tick for it would be a duplicate. */
    consumed_tick_key: string | null;
    lease_ttl_ms: number;
    lease_expires_at: string;
    at: string;
  };
};

export type TurnLeaseRenewed = {
  type: 'TurnLeaseRenewed';
  data: { agent_id: string; turn_id: string; lease_ttl_ms: number; lease_expires_at: string; at: string };
};

/** Recorded before the round's tools run. */
export type AssistantRoundRecorded = {
  type: 'AssistantRoundRecorded';
  data: {
    agent_id: string;
    turn_id: string;
    round_id: string;
    work_item_id: string | null;
    text: string;
    tool_calls: ToolCall[];
    at: string;
  };
};

export type RoundCloseCause = 'explicit' | 'next_round' | 'turn_terminal';

/** The round closed and its report promotion was evaluated (result and warnings kept for the audit and the reply). */
export type RoundClosed = {
  type: 'RoundClosed';
  data: {
    agent_id: string;
    turn_id: string;
    round_id: string;
    cause: RoundCloseCause;
    promotion: Promotion | null;
    warnings: Warning[];
    at: string;
  };
};

/** The round text became the item's canonical completion report (`result_summary`). */
export type WorkItemReportPromoted = {
  type: 'WorkItemReportPromoted';
  data: {
    agent_id: string;
    work_item_id: string;
    turn_id: string;
    round_id: string;
    result_summary: string;
    delivery_summary_id: string;
    brief_id: string;
    revision: number;
    at: string;
  };
};

export type DeliverySummaryRecorded = {
  type: 'DeliverySummaryRecorded';
  data: {
    agent_id: string;
    delivery_summary_id: string;
    work_item_id: string;
    text: string;
    turn_id: string | null;
    round_id: string | null;
    evidence: DeliveryEvidence;
    at: string;
  };
};

export type BriefRecorded = {
  type: 'BriefRecorded';
  data: {
    agent_id: string;
    brief_id: string;
    kind: BriefKind;
    text: string;
    work_item_id: string | null;
    turn_id: string | null;
    round_id: string | null;
    at: string;
  };
};

export type TurnTerminal = {
  type: 'TurnTerminal';
  data: {
    agent_id: string;
    turn_id: string;
    turn_index: number;
    message_id: string;
    work_item_id: string | null;
    terminal_kind: TerminalKind;
    last_assistant_message: string | null;
    at: string;
  };
};

/** After an interruption: the message is requeued (replayed at the message level) or quarantined. */
export type RecoveryClassified = {
  type: 'RecoveryClassified';
  data: {
    agent_id: string;
    turn_id: string;
    message_id: string;
    classification: RecoveryClassification;
    cause: RecoveryCause;
    /** Interruptions of this message so far, this one included. */
    interrupt_count: number;
    /** Tool calls the interrupted turn recorded: evidence for the next turn, never re-executed. */
    tool_call_ids: string[];
    at: string;
  };
};

export type TurnEvent =
  | TurnStarted
  | TurnLeaseRenewed
  | AssistantRoundRecorded
  | RoundClosed
  | WorkItemReportPromoted
  | DeliverySummaryRecorded
  | BriefRecorded
  | TurnTerminal
  | RecoveryClassified;

export const isTurnEvent = eventGuard<TurnEvent>([
  'TurnStarted',
  'TurnLeaseRenewed',
  'AssistantRoundRecorded',
  'RoundClosed',
  'WorkItemReportPromoted',
  'DeliverySummaryRecorded',
  'BriefRecorded',
  'TurnTerminal',
  'RecoveryClassified',
]);
