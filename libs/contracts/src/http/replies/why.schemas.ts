import type { RankedBefore, WhyNot, WhyNotBlocker, WhyNotEvent, WhyNotStanding, WhyNotStep } from '@app/domain';
import { arrayOf, bool, dateTime, int, literalsOf, nullable, oneOfStrings, ref, shapeOf, str } from './schema';

// Why not (issue 19 item 5): GET /v1/agents/{a}/work-items/{w}/why, the domain's whyNot view.

const RULES = literalsOf<WhyNotStep['rule']>()([
  'gate',
  'open_turn',
  'queue_head',
  'wake_hint',
  'continue_active',
  'triggered_review',
  'queued_available',
  'work_item_recheck',
  'waits',
  'idle',
] as const);

const VERDICTS = literalsOf<WhyNot['verdict']>()([
  'next',
  'in_turn',
  'held',
  'waiting',
  'blocked',
  'surfaced',
  'ranked_behind',
  'completed',
  'archived',
] as const);

const BLOCKERS = literalsOf<WhyNotBlocker['kind']>()([
  'agent_stopped',
  'agent_paused',
  'agent_parked',
  'open_turn',
  'needs_input',
  'wait',
  'blocked_by',
  'tick_emitted',
] as const);

const step = shapeOf<WhyNotStep>()(
  {
    rung: int('its number in the ladder of docs/domain-contract.md §5', { minimum: 1, maximum: 10 }),
    rule: oneOfStrings(RULES),
    applies: bool('the rung decides something now'),
    kind: nullable(str('the decision kind it would take')),
    reason: nullable(str()),
    work_item_id: nullable(str()),
    concerns_item: bool('its decision is about this item'),
  },
  { description: 'One rung of the ladder, evaluated on its own, in the order the scheduler climbs them.' },
);

const standing = shapeOf<WhyNotStanding>()(
  {
    rung: int(undefined, { minimum: 1, maximum: 10 }),
    rule: oneOfStrings(RULES),
    rank: nullable(int('1-based rank among the rung’s candidates', { minimum: 1 })),
    of: nullable(int('how many candidates the rung has', { minimum: 1 })),
    tick_key: nullable(str('the tick key the rung would emit for the item')),
    tick_emitted: bool('that key was already emitted (or consumed by a turn): the rung skips the item'),
    recheck_due_at: nullable(dateTime('rung 8: when its recheck comes due')),
    recheck_due: bool(),
  },
  { description: 'The rung that would take the item.' },
);

const rankedBefore = shapeOf<RankedBefore>()({
  rung: int(undefined, { minimum: 1, maximum: 10 }),
  rule: oneOfStrings(RULES),
  kind: oneOfStrings(['agent', 'turn', 'message', 'wake_hint', 'work_item']),
  id: str(),
  why: str(),
});

const blocker = shapeOf<WhyNotBlocker>()({
  kind: oneOfStrings(BLOCKERS),
  id: nullable(str('the intent, turn, tick key or dead-letter position')),
  until: nullable(dateTime('when time alone ends it (a lease, a timer, a recheck)')),
  detail: str(),
});

const nextEvent = shapeOf<WhyNotEvent>()({
  event: nullable(str('the stream event type; null for what is not one (a dead letter answered)')),
  id: nullable(str('the record it concerns (timer, task, intent, turn, item)')),
  at: nullable(dateTime('when it is due, if known')),
  description: str(),
});

const whyNot = shapeOf<WhyNot & { agent_id: string }>()(
  {
    agent_id: str(),
    work_item_id: str(),
    now: dateTime(),
    verdict: oneOfStrings(VERDICTS),
    summary: str('one sentence: the verdict, where it stands, the first reason, the first event that helps'),
    item: nullable(ref('WorkItemWhyItem'), 'null for an archived item'),
    decision: ref('Decision'),
    standing: nullable(ref('WhyNotStanding'), 'null for a completed or archived item'),
    ladder: arrayOf(ref('WhyNotStep')),
    ranks_before: arrayOf(ref('WhyNotRankedBefore'), 'at most 50'),
    ranks_before_total: int(undefined, { minimum: 0 }),
    blockers: arrayOf(ref('WhyNotBlocker')),
    next_events: arrayOf(ref('WhyNotEvent'), 'the nearest first; empty when it is next, completed or archived'),
  },
  { description: 'Why this work item is (not) next: docs/api.md, "Why not".' },
);

const whyItem = shapeOf<NonNullable<WhyNot['item']>>()({
  state: oneOfStrings(['open', 'completed']),
  objective: str(),
  revision: int(undefined, { minimum: 0 }),
  plan_status: oneOfStrings(['draft', 'ready', 'needs_input']),
  blocked_by: nullable(str()),
  recheck_at: nullable(dateTime()),
  is_current: bool(),
  readiness: str(),
  scheduling_state: str(),
  candidate_class: str(),
});

export const WHY_SCHEMAS = {
  WorkItemWhy: whyNot,
  WorkItemWhyItem: whyItem,
  WhyNotStep: step,
  WhyNotStanding: standing,
  WhyNotRankedBefore: rankedBefore,
  WhyNotBlocker: blocker,
  WhyNotEvent: nextEvent,
};
