import type { AnyEvent } from '../agent/agent.events';
import { evolve } from '../agent/agent.evolve';
import { type AgentState, initialAgentState } from '../agent/agent.state';
import { decideNextAction } from './decide-next-action';
import { type DecisionRecord, decisionDifferences, toDecisionRecord } from './decision';

/** One recorded decision, recomputed on the state just before it with its recorded `at` as now. */
export type DecisionReplayEntry = {
  /** Position of the SchedulerDecisionRecorded in the given events (0-based). */
  index: number;
  /** Its stream revision when the events start at the beginning of the stream (state.version before it). */
  revision: number;
  at: string;
  recorded: DecisionRecord | null;
  recomputed: DecisionRecord;
  matches: boolean;
  /** Fields that differ (`kind`, `reason`, `evidence`, ...); `decision` when the stored one is unreadable. */
  differences: string[];
};

export type DecisionReplay = {
  entries: DecisionReplayEntry[];
  mismatches: DecisionReplayEntry[];
  /** True when every recorded decision is reproduced. */
  ok: boolean;
  /** The state after all the events. */
  state: AgentState;
};

type RecordedData = { decision?: unknown; at?: unknown };

function readRecorded(data: RecordedData): DecisionRecord | null {
  const decision = data.decision;
  if (typeof decision !== 'object' || decision === null || typeof (decision as { kind?: unknown }).kind !== 'string')
    return null;
  return toDecisionRecord(decision as DecisionRecord);
}

/** The `at` and the decision a SchedulerDecisionRecorded holds (null when unreadable). */
export function readRecordedDecision(event: AnyEvent): { at: string; recorded: DecisionRecord | null } {
  const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as RecordedData;
  return { at: typeof data.at === 'string' ? data.at : '', recorded: readRecorded(data) };
}

function entryFor(state: AgentState, event: AnyEvent, index: number): DecisionReplayEntry {
  const { at, recorded } = readRecordedDecision(event);
  const recomputed = toDecisionRecord(decideNextAction(state, at));
  const differences = recorded === null ? ['decision'] : decisionDifferences(recorded, recomputed);
  return { index, revision: state.version, at, recorded, recomputed, matches: differences.length === 0, differences };
}

/**
 * Folds an agent's events and, at each SchedulerDecisionRecorded, recomputes decideNextAction on
 * the state just before it (with the recorded `at` as now): replaying a stream must reproduce
 * every recorded decision. Pure; `from` lets a caller start from a snapshot.
 */
export function replayDecisions(events: readonly AnyEvent[], from: AgentState = initialAgentState()): DecisionReplay {
  const entries: DecisionReplayEntry[] = [];
  let state = from;
  events.forEach((event, index) => {
    if (event.type === 'SchedulerDecisionRecorded') entries.push(entryFor(state, event, index));
    state = evolve(state, event);
  });
  const mismatches = entries.filter((entry) => !entry.matches);
  return { entries, mismatches, ok: mismatches.length === 0, state };
}
