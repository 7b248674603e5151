import type { RuntimeClient } from '../runtime-client';
import type { JsonRecord, ModelAdapter, ModelToolCall } from './model/model-adapter';

/** What the host needs of the client (a RuntimeClient; a fake in unit specs). */
export type HostClient = Pick<
  RuntimeClient,
  | 'activate'
  | 'heartbeatTurn'
  | 'recordRound'
  | 'closeRound'
  | 'postTerminal'
  | 'agentEvents'
  | 'createWorkItem'
  | 'updateWorkItem'
  | 'replacePlan'
  | 'pickWorkItem'
  | 'completeWorkItem'
  | 'getWorkItem'
  | 'getPlan'
  | 'listWorkItems'
  | 'waitFor'
  | 'spawn'
>;

/** What a tool gets besides its arguments. */
export interface ToolContext {
  client: HostClient;
  agentId: string;
  turnId: string;
  /** The round whose tool call this is (recorded before the tool runs). */
  roundId: string;
  toolCallId: string;
  /** The Idempotency-Key for the tool's command: the same for the same tool call of the same turn. */
  idempotencyKey: string;
  /** Aborted when the host abandons the turn. */
  signal: AbortSignal;
}

/**
 * A tool the model may call: its JSON Schema is what the model sees; `run` returns what the
 * model reads back (rendered as JSON). A thrown error becomes an error result the model sees.
 */
export interface HostTool {
  name: string;
  description: string;
  parameters: JsonRecord;
  run(args: JsonRecord, context: ToolContext): Promise<unknown>;
}

/** How `stop()` treats a turn that is running (docs/decisions/0029-agent-host.md). */
export type StopMode = 'interrupt' | 'finish' | 'abandon';

export type TerminalKind = 'completed' | 'aborted' | 'failed' | 'interrupted';

/** What the host reports as it works: for logs, tests and the bench. */
export type HostEvent =
  | { type: 'activation'; agent_id: string; decision: string; reason: string; turn: boolean }
  | { type: 'turn_opened'; agent_id: string; turn_id: string; message_id: string | null; work_item_id: string | null }
  | { type: 'heartbeat'; agent_id: string; turn_id: string; cancel_requested: boolean; interjections: number }
  | {
      type: 'round';
      agent_id: string;
      turn_id: string;
      round_id: string;
      index: number;
      text?: string;
      tool_calls: ModelToolCall[];
    }
  | {
      type: 'tool_call';
      agent_id: string;
      turn_id: string;
      round_id: string;
      tool_call_id: string;
      name: string;
      arguments: JsonRecord;
      result: unknown;
      is_error: boolean;
    }
  | { type: 'turn_ended'; agent_id: string; turn_id: string; terminal_kind: TerminalKind | null; reason: string }
  | { type: 'error'; agent_id: string; turn_id?: string; stage: string; error: unknown };

export type HostListener = (event: HostEvent) => void;

export interface AgentHostOptions {
  client: HostClient;
  model: ModelAdapter;
  /** The agents to run (more with `addAgent`). */
  agents?: string[];
  /** The host's standing instructions (the system prompt before the runtime's context). */
  instructions?: string;
  /** Extra tools beside the work-item tools, wait_for and spawn_agent (a name may not repeat). */
  tools?: HostTool[];
  /** Offer the model `spawn_agent` (default true; false: the model cannot hand work to other agents). */
  spawnTool?: boolean;
  /** The lease of a turn the host opens (default 60 s); heartbeats come at a third of it. */
  leaseTtlMs?: number;
  /** The long poll of each activation (default 30 s, at most 60 s). */
  waitMs?: number;
  /** Token budget of the context an activation returns (the runtime's default when absent). */
  contextBudget?: number;
  /** Rounds per turn before the turn fails (default 50): a model that never stops calling tools. */
  maxRounds?: number;
  /** Backoff after a failed activation: from this (default 250 ms), doubling up to `maxBackoffMs` (30 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Told of everything the host does (also `on(listener)`). */
  onEvent?: HostListener;
}
