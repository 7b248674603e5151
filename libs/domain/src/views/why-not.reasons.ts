import type { AgentState } from '../agent/agent.state';
import type { WaitingIntentRecord } from '../waiting-intent/waiting-intent.state';
import type { WorkItem } from '../work-item/work-item.state';
import type { DeadLetterInput } from './closure';
import { activeIntentsFor } from './scheduling';
import { type RankedBefore, type WhyNotStanding } from './why-not.ladder';

// The blockers half of the why-not view (views/why-not.ts): what holds the item, and which
// event would make it next.

export type WhyNotBlockerKind =
  | 'agent_stopped'
  | 'agent_paused'
  | 'agent_parked'
  | 'open_turn'
  | 'needs_input'
  | 'wait'
  | 'blocked_by'
  | 'tick_emitted';

/** One thing that holds the item; `until` is an instant when time alone ends it (a lease, a timer, a recheck). */
export type WhyNotBlocker = { kind: WhyNotBlockerKind; id: string | null; until: string | null; detail: string };

/**
 * An event that would make the item next (or move it up), the record it concerns, and when it is
 * due if known. `event` is the stream event's type, or null for what is not one (an admin's
 * answer to a dead letter).
 */
export type WhyNotEvent = { event: string | null; id: string | null; at: string | null; description: string };

const blocker = (kind: WhyNotBlockerKind, detail: string, id: string | null = null, until: string | null = null) => ({
  kind,
  id,
  until,
  detail,
});

const event = (name: string | null, description: string, id: string | null = null, at: string | null = null) => ({
  event: name,
  id,
  at,
  description,
});

function gateBlockers(state: AgentState, deadLetter: DeadLetterInput | null): WhyNotBlocker[] {
  const found: WhyNotBlocker[] = [];
  if (state.posture === 'stopped') found.push(blocker('agent_stopped', 'the agent is stopped: it processes nothing'));
  if (state.posture === 'paused')
    found.push(blocker('agent_paused', 'the agent is paused: it reduces messages but starts no turn'));
  if (deadLetter !== null)
    found.push(
      blocker(
        'agent_parked',
        `a poison event parks the agent (${deadLetter.event_type} at position ${deadLetter.position}, projection ${deadLetter.projection})`,
        deadLetter.position,
      ),
    );
  return found;
}

function waitBlocker(state: AgentState, intent: WaitingIntentRecord): WhyNotBlocker {
  switch (intent.wake) {
    case 'task_result': {
      const task = state.tasks.get(intent.resource ?? '');
      const lease = task?.lease_expires_at ? `, lease until ${task.lease_expires_at}` : '';
      const detail = `waits for task ${intent.resource} (${task?.status ?? 'unknown'}${lease}; intent ${intent.id})`;
      return blocker('wait', detail, intent.id, task?.lease_expires_at ?? null);
    }
    case 'timer':
      return blocker(
        'wait',
        `waits for a timer firing at ${intent.fire_at} (intent ${intent.id})`,
        intent.id,
        intent.fire_at,
      );
    case 'operator_input':
      return blocker('wait', `waits for operator input (intent ${intent.id})`, intent.id);
    default:
      return blocker(
        'wait',
        `waits for an external change${intent.resource ? ` on ${intent.resource}` : ''} (intent ${intent.id})`,
        intent.id,
      );
  }
}

/** What holds an open item now (empty when nothing does: it is next, or only ranked behind). */
export function blockersOf(
  state: AgentState,
  item: WorkItem,
  stand: WhyNotStanding,
  deadLetter: DeadLetterInput | null,
): WhyNotBlocker[] {
  const found = gateBlockers(state, deadLetter);
  const turn = state.open_turn_id === null ? undefined : state.turns.get(state.open_turn_id);
  if (turn && turn.work_item_id !== item.id)
    found.push(
      blocker('open_turn', `turn ${turn.turn_id} runs (one turn per agent)`, turn.turn_id, turn.lease_expires_at),
    );
  // A message about the item, a trigger or a due recheck takes it whatever holds it otherwise.
  const itemLevel =
    stand.rule === 'waits' || stand.rule === 'idle' || (stand.rule === 'work_item_recheck' && !stand.recheck_due);
  if (!itemLevel) return withEmitted(found, stand);
  if (item.plan_status === 'needs_input')
    found.push(blocker('needs_input', 'plan_status needs_input: it waits for the operator'));
  found.push(...activeIntentsFor(state, item.id).map((intent) => waitBlocker(state, intent)));
  if (item.blocked_by !== null)
    found.push(blocker('blocked_by', `blocked_by: ${item.blocked_by}`, null, stand.recheck_due_at));
  return withEmitted(found, stand);
}

function withEmitted(found: WhyNotBlocker[], stand: WhyNotStanding): WhyNotBlocker[] {
  if (stand.tick_emitted && stand.tick_key !== null)
    found.push(
      blocker(
        'tick_emitted',
        `its ${stand.rule} tick was already emitted or consumed by a turn: the scheduler moves on until the item changes`,
        stand.tick_key,
      ),
    );
  return found;
}

function waitEvent(state: AgentState, intent: WaitingIntentRecord): WhyNotEvent {
  switch (intent.wake) {
    case 'task_result':
      return event(
        'TaskCompleted',
        `task ${intent.resource} ends (TaskCompleted, TaskFailed or TaskCancelled): its result is queued for the item`,
        intent.resource,
        state.tasks.get(intent.resource ?? '')?.lease_expires_at ?? null,
      );
    case 'timer':
      return event(
        'TimerFired',
        `the timer ${intent.timer_id ?? ''} fires${intent.fire_at ? ` at ${intent.fire_at}` : ''}: its tick is queued for the item`,
        intent.timer_id,
        intent.fire_at,
      );
    case 'operator_input':
      return event('WaitingIntentTriggered', `the operator answers intent ${intent.id}`, intent.id);
    default:
      return event(
        'WaitingIntentTriggered',
        `an external event${intent.resource ? ` on ${intent.resource}` : ''} triggers intent ${intent.id} (a callback or a trigger)`,
        intent.id,
      );
  }
}

const names = (entries: RankedBefore[]) => [...new Set(entries.map((e) => e.id))].join(', ');

function rivalEvents(before: RankedBefore[], stand: WhyNotStanding): WhyNotEvent[] {
  const events: WhyNotEvent[] = [];
  const of = (rule: RankedBefore['rule']) => before.filter((entry) => entry.rule === rule);
  const turn = of('open_turn')[0];
  if (turn) events.push(event('TurnTerminal', `turn ${turn.id} ends (its terminal, or its lease runs out)`, turn.id));
  const messages = of('queue_head');
  if (messages.length > 0)
    events.push(event('MessageProcessed', `the queued messages before it are served (${names(messages)})`));
  if (of('wake_hint').length > 0) events.push(event('SystemTickEmitted', 'the pending wake hint is emitted'));
  const focus = of('continue_active');
  if (focus.length > 0)
    events.push(
      event(
        'TurnStarted',
        `the focus ${names(focus)} is served (its continue_active tick, then a turn) or stops being runnable`,
      ),
    );
  const triggered = of('triggered_review');
  if (triggered.length > 0)
    events.push(
      event('SystemTickEmitted', `the triggered items ${names(triggered)} are surfaced (triggered_review ticks)`),
    );
  const rechecks = of('work_item_recheck');
  if (rechecks.length > 0)
    events.push(
      event('SystemTickEmitted', `the due rechecks of ${names(rechecks)} are surfaced (work_item_recheck ticks)`),
    );
  const queued = of('queued_available');
  if (queued.length > 0) {
    events.push(
      event(
        'WorkItemUpdated',
        `the items before it in the queued order leave it (picked, blocked, completed or updated: ${names(queued)})`,
      ),
    );
  }
  if (stand.rule === 'queued_available' || stand.rule === 'triggered_review')
    events.push(event('WorkItemPicked', 'it is picked: it becomes the focus (continue_active)'));
  return events;
}

/** Which events would make an open item next: ending what holds it, then the rivals ranked before it. */
export function nextEventsOf(
  state: AgentState,
  item: WorkItem,
  stand: WhyNotStanding,
  blockers: WhyNotBlocker[],
  before: RankedBefore[],
): WhyNotEvent[] {
  const events: WhyNotEvent[] = [];
  const has = (kind: WhyNotBlockerKind) => blockers.find((b) => b.kind === kind);
  if (has('agent_stopped')) events.push(event('AgentStarted', 'the agent is started (control start)'));
  if (has('agent_paused')) events.push(event('AgentResumed', 'the agent is resumed (control resume)'));
  if (has('agent_parked'))
    events.push(event(null, 'an admin retries or skips the dead-lettered event (the agent is released)'));
  if (stand.rule === 'open_turn') events.push(event('TurnTerminal', `the turn working on it ends`, state.open_turn_id));
  if (has('needs_input'))
    events.push(event('WorkItemUpdated', 'the operator answers: plan_status leaves needs_input', item.id));
  if (has('wait')) events.push(...activeIntentsFor(state, item.id).map((intent) => waitEvent(state, intent)));
  if (has('blocked_by')) events.push(event('WorkItemUpdated', 'blocked_by is cleared', item.id));
  const recheck = stand.recheck_due_at;
  if (stand.rule === 'work_item_recheck' && !stand.tick_emitted && !stand.recheck_due && recheck !== null)
    events.push(
      event('SystemTickEmitted', `its recheck comes due at ${recheck} (a work_item_recheck tick)`, item.id, recheck),
    );
  if (has('tick_emitted'))
    events.push(
      event('WorkItemUpdated', 'the item changes (a new revision, or a new trigger, makes a new tick key)', item.id),
    );
  // While the item itself is held, what ranks before it is not what stands in its way.
  const held = has('needs_input') || has('wait') || has('blocked_by');
  return held ? events : [...events, ...rivalEvents(before, stand)];
}
