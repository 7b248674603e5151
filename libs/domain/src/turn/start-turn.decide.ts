import type { AgentEvent } from '../agent/agent.events';
import { requireRecord, requireRegistered } from '../agent/agent.guards';
import type { AgentState } from '../agent/agent.state';
import type { MessageRecord } from '../queue/message.state';
import type { MessageInterjected } from '../queue/queue.events';
import { decideNextAction } from '../scheduler/decide-next-action';
import { toDecisionRecord } from '../scheduler/decision';
import { continueActiveKey } from '../scheduler/tick-keys';
import { assertCommandMeta } from '../shared/command-meta';
import { DomainError } from '../shared/domain-error';
import { requireValidId } from '../shared/validation';
import { addMs } from '../timer/timer.time';
import { queuedMessagesInOrder } from '../views/message.view';
import type { Heartbeat, StartTurn } from './turn.commands';
import type { CommandMeta } from '../shared/command-meta';
import { decidePickWorkItem } from '../focus/focus.decide';
import type { PickWorkItem } from '../focus/focus.commands';
import type { WorkItemPicked } from '../focus/focus.events';
import { evolveFocus } from '../focus/focus.evolve';
import type { OpenWorkItem } from '../work-item/work-item.state';

/** The reason of the pick an activation makes to bind a task result's turn to its item (issue 15 item 1). */
export const REENTRY_PICK_REASON = 'reentry';
import type { TurnLeaseRenewed, TurnStarted } from './turn.events';
import { requireLeaseTtl, requireOpenTurn, requireTurn } from './turn.validation';

/** No open turn, no gate, a queued message that the scheduler would start a model turn on now. */
function requireStartable(state: AgentState, message: MessageRecord, now: string): void {
  if (state.open_turn_id !== null) {
    throw new DomainError(
      'conflict',
      { rule: 'turn_already_open', open_turn_id: state.open_turn_id },
      `turn ${state.open_turn_id} is still open`,
    );
  }
  if (state.posture === 'stopped' || state.posture === 'paused') {
    throw new DomainError(
      'invariant_violated',
      { rule: `agent_${state.posture}`, posture: state.posture },
      `the agent is ${state.posture}`,
    );
  }
  if (message.status !== 'queued') {
    throw new DomainError('invariant_violated', {
      rule: 'message_not_queued',
      message_id: message.id,
      status: message.status,
    });
  }
  const decision = decideNextAction(state, now);
  if (decision.kind !== 'StartModelTurn' || decision.message_id !== message.id) {
    throw new DomainError(
      'conflict',
      { rule: 'stale_decision', message_id: message.id, expected: toDecisionRecord(decision) },
      `the scheduler now decides ${decision.kind} (${decision.reason}), not a model turn on ${message.id}`,
    );
  }
}

/**
 * Issue 15 item 1: a task result that re-enters the model for an open item other than the focus
 * binds the turn to that item. With no open focus the activation first picks it (WorkItemPicked,
 * reason `reentry`); with another item in focus the focus stays (the context shows the result's
 * item first). Null when the turn simply binds the focus.
 */
function reentryItem(state: AgentState, message: MessageRecord): OpenWorkItem | null {
  if (message.kind !== 'task_result' || message.work_item_id === state.current_work_item_id) return null;
  const item = state.work_items.get(message.work_item_id);
  return item?.state === 'open' ? item : null;
}

function reentryPick(state: AgentState, item: OpenWorkItem, meta: CommandMeta): WorkItemPicked[] {
  const focus = state.work_items.get(state.current_work_item_id);
  if (focus?.state === 'open') return [];
  const pick: PickWorkItem = {
    type: 'PickWorkItem',
    data: { work_item_id: item.id, reason: REENTRY_PICK_REASON },
    meta,
  };
  return decidePickWorkItem(pick, state);
}

function turnStarted(
  state: AgentState,
  agentId: string,
  ids: { turn_id: string; message_id: string },
  ttl: number,
  now: string,
  reentry: OpenWorkItem | null = null,
): TurnStarted {
  const focus = state.work_items.get(state.current_work_item_id);
  const bound = reentry ?? (focus?.state === 'open' ? focus : undefined);
  const focused = bound !== undefined && bound.id === state.current_work_item_id;
  return {
    type: 'TurnStarted',
    data: {
      agent_id: agentId,
      ...ids,
      turn_index: state.turn_index + 1,
      work_item_id: bound?.id ?? null,
      work_item_revision: bound?.revision ?? null,
      consumed_tick_key: bound && focused ? continueActiveKey(bound.id, bound.revision) : null,
      lease_ttl_ms: ttl,
      lease_expires_at: addMs(now, ttl),
      at: now,
    },
  };
}

/** StartTurn: [WorkItemPicked reentry?, MessageDequeued, TurnStarted]. Restarting the same turn on the same message records nothing. */
export function decideStartTurn(command: StartTurn, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const turnId = requireValidId(command.data.turn_id, 'turn_id');
  const messageId = requireValidId(command.data.message_id, 'message_id');
  const ttl = requireLeaseTtl(command.data.lease_ttl_ms);
  const existing = state.turns.get(turnId);
  if (existing !== undefined) {
    if (existing.message_id === messageId) return [];
    throw new DomainError('already_exists', { resource: 'turn', turn_id: turnId }, `turn ${turnId} already exists`);
  }
  const message = requireRecord(state.messages, messageId, 'message');
  requireStartable(state, message, now);
  const reentry = reentryItem(state, message);
  const picked = reentry === null ? [] : reentryPick(state, reentry, command.meta);
  const bound = picked.reduce((s, event) => evolveFocus(s, event), state);
  return [
    ...picked,
    { type: 'MessageDequeued', data: { agent_id: agentId, message_id: messageId, turn_id: turnId, at: now } },
    turnStarted(bound, agentId, { turn_id: turnId, message_id: messageId }, ttl, now, reentry),
  ];
}

/** Queued interject-priority operator prompts, in arrival order: handed over at the next heartbeat. */
export function pendingInterjections(state: AgentState): MessageRecord[] {
  return queuedMessagesInOrder(state).filter(
    (message) => message.priority === 'interject' && message.kind === 'operator_prompt',
  );
}

/** A stopped or paused agent asks its running turn to end: the host learns it from the heartbeat reply. */
export const cancelRequested = (state: AgentState): boolean =>
  state.posture === 'stopped' || state.posture === 'paused';

/**
 * Heartbeat: [TurnLeaseRenewed, MessageInterjected for each pending interjection]. After stop or
 * pause the lease is still renewed (the host ends the turn itself) but nothing is handed over:
 * the prompts stay queued for a turn after start or resume.
 */
export function decideHeartbeat(command: Heartbeat, state: AgentState): AgentEvent[] {
  const { now } = assertCommandMeta(command.meta);
  const agentId = requireRegistered(state);
  const turn = requireOpenTurn(requireTurn(state, requireValidId(command.data.turn_id, 'turn_id')), 'heartbeat');
  const ttl = requireLeaseTtl(command.data.lease_ttl_ms);
  const renewed: TurnLeaseRenewed = {
    type: 'TurnLeaseRenewed',
    data: { agent_id: agentId, turn_id: turn.turn_id, lease_ttl_ms: ttl, lease_expires_at: addMs(now, ttl), at: now },
  };
  const pending = cancelRequested(state) ? [] : pendingInterjections(state);
  const interjected = pending.map((message): MessageInterjected => ({
    type: 'MessageInterjected',
    data: { agent_id: agentId, message_id: message.id, turn_id: turn.turn_id, at: now },
  }));
  return [renewed, ...interjected];
}
