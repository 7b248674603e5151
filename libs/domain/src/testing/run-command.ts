import type { AgentCommand } from '../agent/agent.commands';
import { decide } from '../agent/agent.decide';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import type { AgentState } from '../agent/agent.state';

export type AnyRenderer<R> = (command: never, before: AgentState, after: AgentState, newEvents: AgentEvent[]) => R;

/** Runs a command the way the app does: decide, fold, render. */
export function runCommand<R>(history: readonly AgentEvent[], command: AgentCommand, render: AnyRenderer<R>): R {
  const before = replay(history);
  const events = decide(command, before);
  return render(command as never, before, replay(events, before), events);
}
