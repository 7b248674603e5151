import type { AgentEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import type { MessageRecord } from '../queue/message.state';
import type { BriefRecorded, RecoveryClassified } from './turn.events';
import { MAX_MESSAGE_INTERRUPTIONS, type RecoveryCause, turnBriefIdFor, type TurnRecord } from './turn.state';

/** Every tool call the turn recorded, in order: evidence for the replayed turn, never re-executed. */
export function turnToolCallIds(state: AgentState, turn: TurnRecord): string[] {
  return turn.round_ids.flatMap((id) => state.rounds.get(id)?.tool_calls.map((call) => call.tool_call_id) ?? []);
}

function quarantineBrief(
  agentId: string,
  turn: TurnRecord,
  message: MessageRecord,
  count: number,
  at: string,
): BriefRecorded {
  return {
    type: 'BriefRecorded',
    data: {
      agent_id: agentId,
      brief_id: turnBriefIdFor(turn.turn_id),
      kind: 'failure',
      text: `Message ${message.id} was interrupted ${count} times (last in turn ${turn.turn_id}); it is quarantined and will not be retried.`,
      work_item_id: turn.work_item_id ?? message.work_item_id,
      turn_id: turn.turn_id,
      round_id: null,
      at,
    },
  };
}

/**
 * After an interruption the message is replayed at the message level (MessageRequeued,
 * RecoveryClassified{requeued}); at the third interruption it is dropped and quarantined with a
 * failure brief instead, so a message that kills its host is never retried in a loop.
 */
export function recoveryEvents(
  state: AgentState,
  agentId: string,
  turn: TurnRecord,
  message: MessageRecord,
  cause: RecoveryCause,
  at: string,
): AgentEvent[] {
  const count = (message.interrupt_count ?? 0) + 1;
  const quarantined = count >= MAX_MESSAGE_INTERRUPTIONS;
  const classified: RecoveryClassified = {
    type: 'RecoveryClassified',
    data: {
      agent_id: agentId,
      turn_id: turn.turn_id,
      message_id: message.id,
      classification: quarantined ? 'quarantined' : 'requeued',
      cause,
      interrupt_count: count,
      tool_call_ids: turnToolCallIds(state, turn),
      at,
    },
  };
  const data = { agent_id: agentId, message_id: message.id, at };
  if (!quarantined) return [{ type: 'MessageRequeued', data: { ...data, turn_id: turn.turn_id } }, classified];
  return [
    { type: 'MessageDropped', data: { ...data, reason: 'quarantined' } },
    classified,
    quarantineBrief(agentId, turn, message, count, at),
  ];
}
