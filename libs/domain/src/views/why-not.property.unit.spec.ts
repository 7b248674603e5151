import fc from 'fast-check';
import type { AgentState } from '../agent/agent.state';
import { decideNextAction } from '../scheduler/decide-next-action';
import { registered } from '../testing/fixtures';
import { type Action, actionArb, play, type World } from '../testing/random-actions';
import { streamOf } from '../testing/worker-simulation';
import { whyNot } from './why-not';

// The why-not view against the scheduler itself, on every state of random agent lives: the item
// the view calls next is the one the scheduler's decision takes (its oracle: decideNextAction's
// own work_item_id and kind, not the view), the view's ladder is the scheduler's, and every item
// that is not next is told what holds it or ranks before it, and what would make it next.

function statesOf(actions: Action[]): { state: AgentState; now: string }[] {
  const states: { state: AgentState; now: string }[] = [];
  actions.reduce<World>(
    (w, a) => {
      const next = play(w, a);
      states.push({
        state: next.stream.state,
        now: `2026-01-01T${String(Math.floor(next.minute / 60)).padStart(2, '0')}:${String(next.minute % 60).padStart(2, '0')}:00.000Z`,
      });
      return next;
    },
    { stream: streamOf([registered()]), minute: 60 },
  );
  return states;
}

const lives = fc.array(actionArb, { minLength: 1, maxLength: 60, size: 'max' });
const TAKING = ['EmitSystemTick', 'StartModelTurn'];

describe('whyNot (property)', () => {
  it('calls next exactly the open item the scheduler decides for, and explains every other one', () => {
    fc.assert(
      fc.property(lives, (actions) => {
        for (const { state, now } of statesOf(actions)) {
          const decision = decideNextAction(state, now);
          for (const item of state.work_items.values()) {
            const why = whyNot(state, item.id, now)!;
            const first = why.ladder.find((step) => step.applies)!;
            expect([first.kind, first.reason, first.work_item_id]).toEqual([
              decision.kind,
              decision.reason,
              decision.work_item_id ?? null,
            ]);
            if (item.state === 'completed') {
              expect(why.verdict).toBe('completed');
              continue;
            }
            const taken = decision.work_item_id === item.id && TAKING.includes(decision.kind);
            expect(why.verdict === 'next').toBe(taken);
            if (why.verdict === 'next') {
              expect(why.ranks_before).toEqual([]);
              expect(why.blockers).toEqual([]);
            } else {
              expect(why.next_events.length).toBeGreaterThan(0);
            }
            if (why.verdict === 'ranked_behind') expect(why.ranks_before.length).toBeGreaterThan(0);
            if (why.verdict === 'waiting' || why.verdict === 'blocked' || why.verdict === 'held')
              expect(why.blockers.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
