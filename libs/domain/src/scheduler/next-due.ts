import type { AgentState } from '../agent/agent.state';
import { compareInstants } from '../shared/time';
import { leasedTasks } from '../task/task-lease';
import { readinessOf } from '../views/scheduling';
import { isTimerHeld, scheduledTimers } from '../views/timer.view';
import { recheckKey } from './tick-keys';
import { isEmitted } from './work-queue.rungs';

/**
 * The next instant at which time alone changes what the scheduler should do for this agent:
 * a timer falls due (unless held), the open turn's or an active task's lease expires, or a blocked
 * item's recheck_at comes.
 * Null when nothing is pending: an idle agent then costs the scheduler nothing until its
 * next event.
 */
export function nextDueAt(state: AgentState): string | null {
  const candidates: string[] = [];
  // A held timer (stopped, or paused with its tick pending) is due again only after start or resume.
  const timer = scheduledTimers(state).find((t) => !isTimerHeld(state, t));
  if (timer) candidates.push(timer.fire_at);
  const turn = state.open_turn_id === null ? undefined : state.turns.get(state.open_turn_id);
  if (turn) candidates.push(turn.lease_expires_at);
  const [task] = leasedTasks(state);
  if (task) candidates.push(task.lease_expires_at!);
  // The rechecks are soonest first: the first one still to surface is the only one that counts.
  for (const id of state.scheduling_index.rechecks) {
    const item = state.work_items.get(id)!;
    if (item.recheck_at === null) continue;
    if (isEmitted(state, recheckKey(item.id, item.recheck_at)) || readinessOf(state, item) !== 'blocked') continue;
    candidates.push(item.recheck_at);
    break;
  }
  return candidates.reduce<string | null>(
    (soonest, at) => (soonest === null || compareInstants(at, soonest) < 0 ? at : soonest),
    null,
  );
}
