import type { AgentCommand } from '../agent/agent.commands';
import { decide } from '../agent/agent.decide';
import type { AgentEvent } from '../agent/agent.events';
import { evolve, replay } from '../agent/agent.evolve';
import type { AgentState } from '../agent/agent.state';
import { decideNextAction } from '../scheduler/decide-next-action';
import { isDomainError } from '../shared/domain-error';
import { expiredTurn } from '../turn/turn-terminal.decide';
import { dueTimers } from '../views/timer.view';
import { meta } from './fixtures';
import { tcmd } from './turn-fixtures';

// A stream written the way the runtime writes it: commands decided on the folded state, the
// scheduler worker's steps (expire leases, fire timers, record the decision, carry out its effect).

export type Stream = { events: AgentEvent[]; state: AgentState; seq: number };

export const streamOf = (events: readonly AgentEvent[]): Stream => ({
  events: [...events],
  state: replay(events),
  seq: 0,
});

/** Decides and folds one command; a refusal (DomainError) leaves the stream as it is. Anything else is a bug and throws. */
export function apply(stream: Stream, command: AgentCommand): Stream {
  try {
    const events = decide(command, stream.state);
    return { ...stream, events: [...stream.events, ...events], state: events.reduce(evolve, stream.state) };
  } catch (error) {
    if (isDomainError(error)) return stream;
    throw error;
  }
}

const nextId = (stream: Stream, prefix: string): [string, Stream] => [
  `${prefix}-${stream.seq + 1}`,
  { ...stream, seq: stream.seq + 1 },
];

/** What the worker carries out by itself after recording (StartModelTurn is the host's, through an activation). */
function carryOut(stream: Stream, now: string): Stream {
  const decision = decideNextAction(stream.state, now);
  const recorded = apply(stream, tcmd.recordDecision(decision, now));
  if (decision.kind === 'EmitSystemTick') {
    const [id, next] = nextId(recorded, 'm-tick');
    return apply(next, tcmd.emitTick(decision, id, now));
  }
  if (decision.kind === 'ReduceMessageOnly' && decision.message_id)
    return apply(recorded, tcmd.reduce(decision.message_id, now));
  return recorded;
}

/** One worker step at `now`: an expired lease first, then due timers, then one decision and its effect. */
export function workerStep(stream: Stream, now: string): Stream {
  const expired = expiredTurn(stream.state, now);
  let next = expired ? apply(stream, tcmd.expire(expired.turn_id, now)) : stream;
  for (const timer of dueTimers(next.state, now)) {
    const [id, withId] = nextId(next, 'm-timer');
    next = apply(withId, { type: 'FireTimer', data: { timer_id: timer.id, message_id: id }, meta: meta(now) });
  }
  return carryOut(next, now);
}

/** An activation by the host: when the scheduler says StartModelTurn, record it and open the turn. */
export function activation(stream: Stream, now: string): { stream: Stream; turn_id: string | null } {
  const decision = decideNextAction(stream.state, now);
  if (decision.kind !== 'StartModelTurn' || !decision.message_id)
    return { stream: apply(stream, tcmd.recordDecision(decision, now)), turn_id: null };
  const [turnId, next] = nextId(apply(stream, tcmd.recordDecision(decision, now)), 'turn');
  return { stream: apply(next, tcmd.startTurn(turnId, decision.message_id, now)), turn_id: turnId };
}
