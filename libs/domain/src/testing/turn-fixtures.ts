import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import type { DecisionRecord, SchedulerDecision } from '../scheduler/decision';
import { decideNextAction } from '../scheduler/decide-next-action';
import type { TerminalKind, ToolCall } from '../turn/turn.state';
import { meta } from './fixtures';
import { history } from './waiting-fixtures';

// Command builders for turns and the scheduler's own commands (default meta: now = at(60)).

export const LEASE_MS = 60_000;

export const tcmd = {
  startTurn: (turnId: string, messageId: string, now?: string, lease_ttl_ms = LEASE_MS): AgentCommand => ({
    type: 'StartTurn',
    data: { turn_id: turnId, message_id: messageId, lease_ttl_ms },
    meta: meta(now),
  }),
  heartbeat: (turnId: string, now?: string, lease_ttl_ms = LEASE_MS): AgentCommand => ({
    type: 'Heartbeat',
    data: { turn_id: turnId, lease_ttl_ms },
    meta: meta(now),
  }),
  round: (turnId: string, roundId: string, text?: string, tool_calls: ToolCall[] = [], now?: string): AgentCommand => ({
    type: 'RecordRound',
    data: { turn_id: turnId, round_id: roundId, ...(text !== undefined && { text }), tool_calls },
    meta: meta(now),
  }),
  closeRound: (turnId: string, roundId: string, now?: string): AgentCommand => ({
    type: 'CloseRound',
    data: { turn_id: turnId, round_id: roundId },
    meta: meta(now),
  }),
  terminal: (turnId: string, terminal_kind: TerminalKind, last?: string, now?: string): AgentCommand => ({
    type: 'TurnTerminal',
    data: { turn_id: turnId, terminal_kind, ...(last !== undefined && { last_assistant_message: last }) },
    meta: meta(now),
  }),
  expire: (turnId: string, now: string): AgentCommand => ({
    type: 'ExpireLease',
    data: { turn_id: turnId },
    meta: meta(now),
  }),
  completeIn: (workItemId: string, roundId: string, now?: string): AgentCommand => ({
    type: 'CompleteWorkItem',
    data: { work_item_id: workItemId, round_id: roundId },
    meta: meta(now),
  }),
  /** A tick is recorded and emitted together: it is queued as `tickMessageId`. */
  recordDecision: (
    decision: SchedulerDecision | DecisionRecord,
    now?: string,
    at?: string,
    tickMessageId = 'm-tick',
  ): AgentCommand => ({
    type: 'RecordDecision',
    data: {
      decision,
      ...(at !== undefined && { at }),
      ...(decision.kind === 'EmitSystemTick' && { message_id: tickMessageId }),
    },
    meta: meta(now),
  }),
  emitTick: (decision: SchedulerDecision | DecisionRecord, messageId: string, now?: string): AgentCommand => ({
    type: 'EmitSystemTick',
    data: { decision, message_id: messageId },
    meta: meta(now),
  }),
  reduce: (messageId: string, now?: string): AgentCommand => ({
    type: 'ReduceMessage',
    data: { message_id: messageId },
    meta: meta(now),
  }),
};

export const call = (tool_call_id: string, name = 'shell'): ToolCall => ({ tool_call_id, name });

/** The decision the scheduler takes on this stream at `now` (default at(60)). */
export const nextDecision = (events: readonly AgentEvent[], now = meta().now): SchedulerDecision =>
  decideNextAction(replay(events), now);

/** The stream after one scheduler step the way the worker does it: record the decision (a tick is emitted with it). */
export function schedulerStep(events: readonly AgentEvent[], now = meta().now, tickMessageId = 'm-tick'): AgentEvent[] {
  return history(events, tcmd.recordDecision(nextDecision(events, now), now, undefined, tickMessageId));
}
