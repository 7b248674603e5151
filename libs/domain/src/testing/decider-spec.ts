import { decide } from '../agent/agent.decide';
import { evolve } from '../agent/agent.evolve';
import { initialAgentState } from '../agent/agent.state';
import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent, AnyEvent } from '../agent/agent.events';
import type { AgentState } from '../agent/agent.state';
import { type DomainErrorCode, isDomainError } from '../shared/domain-error';

/** A decider: the three functions a given/when/then spec needs. */
export type Decider<C, E, S> = {
  decide: (command: C, state: S) => E[];
  evolve: (state: S, event: AnyEvent) => S;
  initialState: () => S;
};

export type Outcome<E, S> = {
  /** The decision equals exactly these events, in order. */
  then: (expected: E[]) => void;
  /** The decision records nothing (already done). */
  thenNothing: () => void;
  /** The decision is refused with this DomainError code (and, if given, details containing these). */
  thenThrows: (code: DomainErrorCode, details?: Record<string, unknown>) => void;
  /** Folds the decided events onto the given state and hands both to `check`. */
  thenState: (check: (after: S, events: E[]) => void) => void;
};

/** The outcome of deciding `command` on `before`. */
function outcomeOf<C, E, S>(decider: Decider<C, E, S>, before: S, command: C): Outcome<E, S> {
  const run = () => decider.decide(command, before);
  return {
    then: (expected) => expect(run()).toEqual(expected),
    thenNothing: () => expect(run()).toEqual([]),
    thenThrows: (code, details) => {
      let caught: unknown;
      try {
        run();
      } catch (error) {
        caught = error;
      }
      if (!isDomainError(caught)) throw new Error(`expected DomainError ${code}, got ${String(caught)}`);
      expect(caught.code).toBe(code);
      if (details) expect(caught.details).toMatchObject(details);
    },
    thenState: (check) => {
      const events = run();
      check((events as AnyEvent[]).reduce(decider.evolve, before), events);
    },
  };
}

/** Builds `given(events).when(command).then(...)` for a decider (jest `expect` does the asserting). */
export function deciderSpec<C, E, S>(decider: Decider<C, E, S>) {
  return (given: readonly AnyEvent[] | AnyEvent = []) => ({
    when: (command: C): Outcome<E, S> => {
      const before = (Array.isArray(given) ? given : [given]).reduce(decider.evolve, decider.initialState());
      return outcomeOf(decider, before, command);
    },
  });
}

const agentDecider: Decider<AgentCommand, AgentEvent, AgentState> = { decide, evolve, initialState: initialAgentState };

/** given/when/then for the agent decider. */
export const given = deciderSpec(agentDecider);

/**
 * given/when/then from a state rather than a stream: for facts that other slices' events will
 * record (an open turn, an asleep posture) before those events exist.
 */
export const givenState = (state: AgentState) => ({
  when: (command: AgentCommand): Outcome<AgentEvent, AgentState> => outcomeOf(agentDecider, state, command),
});
