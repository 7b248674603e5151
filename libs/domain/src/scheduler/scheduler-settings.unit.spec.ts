import fc from 'fast-check';
import { replay } from '../agent/agent.evolve';
import type { AgentEvent } from '../agent/agent.events';
import { at, cmd, meta, registered, todo } from '../testing/fixtures';
import { tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { type Action, actionArb, play, type World } from '../testing/random-actions';
import { streamOf } from '../testing/worker-simulation';
import { CANDIDATE_RANKING, type RankedClass } from '../views/candidate-ranking';
import { decideNextAction, schedulerLadder } from './decide-next-action';
import { DEFAULT_SCHEDULER_SETTINGS, type SchedulerSettings } from './scheduler-settings';
import { parseSchedulerPolicy } from './scheduler-settings.parse';
import { whatIfDecisions } from './what-if';

// The scheduler's settings as one value object (issue 19 item 7): the defaults decide as the
// runtime always did; other settings change exactly what they name.

const NOW = at(60);
const agent = [registered()];
const settings = (over: Partial<SchedulerSettings>): SchedulerSettings => ({ ...DEFAULT_SCHEDULER_SETTINGS, ...over });
const reordered = (first: RankedClass['class']): RankedClass[] => [
  ...CANDIDATE_RANKING.filter((r) => r.class === first),
  ...CANDIDATE_RANKING.filter((r) => r.class !== first),
];

describe('scheduler settings', () => {
  it('climbs rungs 5 to 8 in the order the ranking puts their classes', () => {
    expect(schedulerLadder().map((r) => r.rung)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const queuedFirst = settings({ ranking: reordered('queued_runnable') });
    expect(schedulerLadder(queuedFirst).map((r) => r.rule)).toEqual([
      'gate',
      'open_turn',
      'queue_head',
      'wake_hint',
      'queued_available',
      'continue_active',
      'triggered_review',
      'work_item_recheck',
      'waits',
      'idle',
    ]);
  });

  it('given a runnable focus and a queued item, a queued-first ranking offers the queued item first', () => {
    const events = history(agent, cmd.create('w-1'), cmd.create('w-2'), cmd.pick('w-1'));
    expect(decideNextAction(replay(events), NOW)).toMatchObject({ reason: 'continue_active', work_item_id: 'w-1' });
    expect(decideNextAction(replay(events), NOW, settings({ ranking: reordered('queued_runnable') }))).toMatchObject({
      reason: 'queued_available',
      work_item_id: 'w-2',
    });
  });

  it('given other queued keys, offers the newest-touched queued item first', () => {
    const events = history(
      agent,
      { ...cmd.create('w-1'), meta: meta(at(10)) },
      { ...cmd.create('w-2'), meta: meta(at(20)) },
      { ...cmd.update('w-1', { todo_list: [todo('step')] }), meta: meta(at(30)) },
    );
    const newest = CANDIDATE_RANKING.map((r) =>
      r.class === 'queued_runnable'
        ? {
            ...r,
            keys: [
              { field: 'updated_at' as const, direction: 'desc' as const },
              { field: 'id' as const, direction: 'asc' as const },
            ],
          }
        : r,
    );
    expect(decideNextAction(replay(events), NOW).work_item_id).toBe('w-2');
    expect(decideNextAction(replay(events), NOW, settings({ ranking: newest })).work_item_id).toBe('w-1');
  });

  it('given an open turn, a shorter lease TTL says lease_expired sooner', () => {
    const events = history(
      agent,
      cmd.create('w-1'),
      wcmd.enqueue('m-1'),
      tcmd.startTurn('turn-1', 'm-1', at(50), 600_000),
    );
    expect(decideNextAction(replay(events), at(51)).evidence).not.toContain('lease_expired');
    expect(decideNextAction(replay(events), at(51), settings({ lease_ttl_ms: 30_000 })).evidence).toContain(
      'lease_expired',
    );
  });

  it('given a due recheck, a disabled or delayed recheck policy does not surface it yet', () => {
    const events: AgentEvent[] = history(
      agent,
      cmd.create('w-1'),
      cmd.update('w-1', { blocked_by: 'x', recheck_at: at(30) }),
    );
    expect(decideNextAction(replay(events), NOW).reason).toBe('work_item_recheck');
    expect(decideNextAction(replay(events), NOW, settings({ recheck: { enabled: false, delay_ms: 0 } })).reason).toBe(
      'no_runnable_work',
    );
    const delayed = settings({ recheck: { enabled: true, delay_ms: 3_600_000 } });
    expect(decideNextAction(replay(events), NOW, delayed).reason).toBe('no_runnable_work');
    expect(decideNextAction(replay(events), at(90), delayed).reason).toBe('work_item_recheck');
  });

  it('decides as the defaults with equivalent settings written otherwise, so the policy paths sort (random lives)', () => {
    // The same orders with a redundant trailing `id` key: not the declared keys by value, so the
    // queued, operator and blocked items are sorted by the policy's keys instead of the index.
    const equivalent: SchedulerSettings = {
      ...JSON.parse(JSON.stringify(DEFAULT_SCHEDULER_SETTINGS)),
      ranking: CANDIDATE_RANKING.map((r) => ({ ...r, keys: [...r.keys, { field: 'id', direction: 'asc' }] })),
    };
    const lives = fc.array(actionArb, { minLength: 1, maxLength: 60, size: 'max' });
    fc.assert(
      fc.property(lives, (actions: Action[]) => {
        actions.reduce<World>(
          (w, a) => {
            const next = play(w, a);
            const now = at(next.minute);
            expect(decideNextAction(next.stream.state, now, equivalent)).toEqual(
              decideNextAction(next.stream.state, now),
            );
            return next;
          },
          { stream: streamOf([registered()]), minute: 60 },
        );
      }),
      { numRuns: 100 },
    );
  });
});

describe('parseSchedulerPolicy', () => {
  it('reads an empty policy as the defaults and appends id to keys that lack it', () => {
    expect(parseSchedulerPolicy({})).toEqual({ ok: true, settings: DEFAULT_SCHEDULER_SETTINGS });
    const ranking = CANDIDATE_RANKING.map((r) =>
      r.class === 'queued_runnable'
        ? { class: r.class, keys: [{ field: 'created_at', direction: 'desc' }] }
        : { class: r.class },
    );
    const parsed = parseSchedulerPolicy({ ranking, lease_ttl_ms: 30_000, recheck: { delay_ms: 1000 } });
    expect(parsed).toMatchObject({
      ok: true,
      settings: { lease_ttl_ms: 30_000, recheck: { enabled: true, delay_ms: 1000 } },
    });
    if (parsed.ok)
      expect(parsed.settings.ranking.find((r) => r.class === 'queued_runnable')!.keys).toEqual([
        { field: 'created_at', direction: 'desc' },
        { field: 'id', direction: 'asc' },
      ]);
  });

  it('names every error with its path', () => {
    expect(parseSchedulerPolicy([])).toMatchObject({ ok: false });
    const parsed = parseSchedulerPolicy({
      ranking: [{ class: 'queued_runnable', keys: [{ field: 'size', direction: 'up' }] }, { class: 'nope' }],
      lease_ttl_ms: 5,
      recheck: { enabled: 'yes' },
      extra: 1,
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.errors).toEqual([
        'policy.extra: unknown field (allowed: ranking, lease_ttl_ms, recheck)',
        'ranking[0].keys[0].field: one of last_triggered_at, updated_at, created_at, id',
        'ranking[0].keys[0].direction: asc or desc',
        'ranking[1].class: one of current_runnable, triggered_blocked, queued_runnable, waiting_for_operator, blocked, completed_recent',
        'ranking: every class once; missing current_runnable, triggered_blocked, waiting_for_operator, blocked, completed_recent',
        "lease_ttl_ms: null (each turn's own) or an integer 1000..3600000",
        'recheck.enabled: true or false',
      ]);
  });
});

describe('whatIfDecisions', () => {
  it('shows the recorded decision points a policy decides otherwise, and none for the defaults', () => {
    const base = history(agent, cmd.create('w-1'), cmd.create('w-2'), cmd.pick('w-1'));
    const decision = decideNextAction(replay(base), NOW);
    const events = history(base, tcmd.recordDecision(decision, NOW, NOW));
    expect(whatIfDecisions(events, DEFAULT_SCHEDULER_SETTINGS)).toMatchObject({ differing: [], not_reproduced: 0 });
    const what = whatIfDecisions(events, settings({ ranking: reordered('queued_runnable') }));
    expect(what.entries).toHaveLength(1);
    expect(what.differing[0]).toMatchObject({
      current: { reason: 'continue_active', work_item_id: 'w-1' },
      policy: { reason: 'queued_available', work_item_id: 'w-2' },
      reproduced: true,
    });
    expect(what.differing[0].differences).toEqual(
      expect.arrayContaining(['reason', 'work_item_id', 'idempotency_key']),
    );
  });
});
