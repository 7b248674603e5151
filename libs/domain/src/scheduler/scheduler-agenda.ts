import type { AgentState } from '../agent/agent.state';
import { decideNextAction } from './decide-next-action';
import { sameDecision } from './decision';
import { nextDueAt } from './next-due';

/** Decisions after which the scheduler steps again at once (their effect changes the next decision). */
const CHAINING_KINDS: readonly string[] = ['EmitSystemTick', 'ReduceMessageOnly'];

/** What the scheduler's agenda needs of an agent (the scheduler_agenda read model: docs/decisions/0038). */
export interface SchedulerAgendaEntry {
  /** When time alone next changes the agent's decision (nextDueAt), or null. */
  next_due_at: string | null;
  /**
   * True when the scheduler has not yet rested on this state: at `at`, the decision it would take
   * is not the one it last recorded, or it is one it steps on from (a tick, a reduce). A scheduler
   * that starts evaluates such an agent at once; one that is neither due nor undecided can wait.
   */
  undecided: boolean;
}

/**
 * The agenda entry of a state as of `at` (the time of its last event): a pure view over the same
 * rules the worker applies (decideNextAction, nextDueAt). An unregistered agent has none.
 */
export function schedulerAgendaOf(state: AgentState, at: string): SchedulerAgendaEntry | null {
  if (state.agent_id === null) return null;
  const decision = decideNextAction(state, at);
  const last = state.last_decision;
  const undecided = CHAINING_KINDS.includes(decision.kind) || last === null || !sameDecision(last.decision, decision);
  return { next_due_at: nextDueAt(state), undecided };
}
