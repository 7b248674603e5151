import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import { at, cmd, registered } from './fixtures';
import { tcmd } from './turn-fixtures';
import { history, wcmd } from './waiting-fixtures';

// The facts that make each rung of docs/domain-contract.md §5 apply, one step per rung, to build ladders in specs.
// Every step leaves the queue empty unless it is about the queue.

const external = (intentId: string, workItemId: string | null): AgentCommand =>
  wcmd.waitFor(intentId, workItemId, {
    wake: 'external',
    resource: `res-${intentId}`,
    callback_token_hash: `sha256:${intentId}`,
  });

export type Rung = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;

/** The commands that make rung `n` apply (on top of a registered agent, and of the lower rungs' facts). */
export const RUNG_FACTS: Record<Exclude<Rung, 10>, AgentCommand[]> = {
  9: [external('i-agent', null)],
  8: [cmd.create('w-re'), cmd.update('w-re', { blocked_by: 'waiting for CI', recheck_at: at(30) })],
  7: [cmd.create('w-q')],
  6: [cmd.create('w-tr'), external('i-tr', 'w-tr'), wcmd.trigger('i-tr', {}, at(50)), wcmd.drop('m-i-tr')],
  5: [cmd.create('w-cur'), cmd.pick('w-cur')],
  4: [wcmd.enqueue('m-busy'), wcmd.wakeHint({ source: 'ci', message_id: undefined }, at(55)), wcmd.drop('m-busy')],
  3: [wcmd.enqueue('m-op')],
  2: [tcmd.startTurn('t-1', 'm-op'), wcmd.enqueue('m-op-2')],
  1: [wcmd.control('pause')],
};

/** A registered agent with the facts of rungs `from`..9 (so rungs from..10 all apply). */
export function ladderFrom(from: Rung): AgentEvent[] {
  const rungs = ([9, 8, 7, 6, 5, 4, 3, 2, 1] as const).filter((rung) => rung >= from);
  return rungs.reduce<AgentEvent[]>((events, rung) => history(events, ...RUNG_FACTS[rung]), [registered()]);
}

/** A registered agent with only the facts of rung `n` (its own prerequisites included). */
export function onlyRung(rung: Rung): AgentEvent[] {
  if (rung === 10) return [registered()];
  if (rung === 2) return history([registered()], ...RUNG_FACTS[3], ...RUNG_FACTS[2]);
  return history([registered()], ...RUNG_FACTS[rung]);
}
