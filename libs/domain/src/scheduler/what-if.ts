import type { AnyEvent } from '../agent/agent.events';
import { evolve } from '../agent/agent.evolve';
import { type AgentState, initialAgentState } from '../agent/agent.state';
import { decideNextAction } from './decide-next-action';
import { type DecisionRecord, decisionDifferences, toDecisionRecord } from './decision';
import { readRecordedDecision } from './replay-decisions';
import { DEFAULT_SCHEDULER_SETTINGS, type SchedulerSettings } from './scheduler-settings';

/*
 * What-if (issue 19 item 7, docs/decisions/0037): at each recorded decision point, on the state
 * recorded there (the events before it, folded) and at its recorded `at`, the decision under the
 * runtime's settings beside the decision under other ones. Only the recorded points are
 * evaluated: a policy that decides otherwise would have led to another history, which is not
 * simulated.
 */

export type WhatIfEntry = {
  /** Position of the SchedulerDecisionRecorded in the given events (0-based). */
  index: number;
  at: string;
  recorded: DecisionRecord | null;
  /** Today's scheduler with the runtime's settings (equal to `recorded` when the stream replays). */
  current: DecisionRecord;
  /** The same state and instant under the policy. */
  policy: DecisionRecord;
  /** Fields on which `policy` differs from `current` (empty: the policy decides the same). */
  differences: string[];
  /** False when today's scheduler does not reproduce the recorded decision (see `replay`). */
  reproduced: boolean;
};

export type WhatIf = { entries: WhatIfEntry[]; differing: WhatIfEntry[]; not_reproduced: number; state: AgentState };

function entryFor(state: AgentState, event: AnyEvent, index: number, settings: SchedulerSettings): WhatIfEntry {
  const { at, recorded } = readRecordedDecision(event);
  const current = toDecisionRecord(decideNextAction(state, at));
  const policy = toDecisionRecord(decideNextAction(state, at, settings));
  const differences = decisionDifferences(current, policy);
  const reproduced = recorded !== null && decisionDifferences(recorded, current).length === 0;
  return { index, at, recorded, current, policy, differences, reproduced };
}

/** Folds the events and evaluates every recorded decision point under `settings` beside the defaults. Pure. */
export function whatIfDecisions(
  events: readonly AnyEvent[],
  settings: SchedulerSettings,
  from: AgentState = initialAgentState(),
): WhatIf {
  const entries: WhatIfEntry[] = [];
  let state = from;
  events.forEach((event, index) => {
    if (event.type === 'SchedulerDecisionRecorded') entries.push(entryFor(state, event, index, settings));
    state = evolve(state, event);
  });
  return {
    entries,
    differing: entries.filter((entry) => entry.differences.length > 0),
    not_reproduced: entries.filter((entry) => !entry.reproduced).length,
    state,
  };
}

/** True when the settings are the runtime's (by value). */
export const isDefaultSettings = (settings: SchedulerSettings): boolean =>
  JSON.stringify(settings) === JSON.stringify(DEFAULT_SCHEDULER_SETTINGS);
