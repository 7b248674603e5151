import fc from 'fast-check';
import type { AgentCommand } from '../agent/agent.commands';
import { evolve, replay } from '../agent/agent.evolve';
import { schedulingIndexOf } from '../agent/scheduling-index.upkeep';
import { type AgentState, reviveAgentState } from '../agent/agent.state';
import { decideNextAction } from '../scheduler/decide-next-action';
import { replayDecisions } from '../scheduler/replay-decisions';
import { at, meta, registered } from '../testing/fixtures';
import { type Action, actionArb, play, type World } from '../testing/random-actions';
import { apply, streamOf } from '../testing/worker-simulation';
import { decideArchiveWorkItems } from './archive.decide';

const start = (): World => ({ stream: streamOf([registered()]), minute: 60 });
const lives = fc.array(actionArb, { minLength: 1, maxLength: 80, size: 'max' });
const RUNS = { numRuns: 150 };

const archiveAt = (cutOffMinute: number, now: string): AgentCommand => ({
  type: 'ArchiveWorkItems',
  data: { completed_before: at(cutOffMinute) },
  meta: meta(now),
});

function archived(state: AgentState, cutOffMinute: number, now: string): AgentState {
  const command = archiveAt(cutOffMinute, now) as Extract<AgentCommand, { type: 'ArchiveWorkItems' }>;
  return decideArchiveWorkItems(command, state).reduce(evolve, state);
}

/** Every state a random life goes through, and the world at its end. */
function lifeOf(actions: Action[], from = start()): { world: World; states: AgentState[] } {
  const states: AgentState[] = [];
  const world = actions.reduce((w, a) => {
    const next = play(w, a);
    states.push(next.stream.state);
    return next;
  }, from);
  return { world, states };
}

describe('archiving over random agent lives (property)', () => {
  it('never changes the kind or the work item of a decision (counts in the evidence may change)', () => {
    fc.assert(
      fc.property(lives, fc.nat(90), fc.nat(120), (actions, cutOff, minutes) => {
        const now = at(60 + minutes);
        for (const state of lifeOf(actions).states) {
          const after = archived(state, 60 + cutOff, now);
          const [was, is] = [decideNextAction(state, now), decideNextAction(after, now)];
          expect({ kind: is.kind, work_item_id: is.work_item_id }).toEqual({
            kind: was.kind,
            work_item_id: was.work_item_id,
          });
          expect(after.scheduling_index).toEqual(schedulingIndexOf(after));
          expect(reviveAgentState(JSON.parse(JSON.stringify(after)))).toEqual(after);
        }
      }),
      RUNS,
    );
  });

  it('keeps every open item, and takes only completed items older than the cut-off', () => {
    fc.assert(
      fc.property(lives, fc.nat(90), (actions, cutOff) => {
        const { world } = lifeOf(actions);
        const state = world.stream.state;
        const after = archived(state, 60 + cutOff, at(world.minute));
        for (const item of state.work_items.values()) {
          if (after.work_items.has(item.id)) continue;
          expect(item.state).toBe('completed');
          expect(item.completed_at! < at(60 + cutOff)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('replays a stream with archive events into every recorded decision', () => {
    fc.assert(
      fc.property(lives, lives, fc.nat(30), (first, second, back) => {
        const half = lifeOf(first).world;
        const cutOff = Math.max(60, half.minute - back);
        const stream = apply(half.stream, archiveAt(cutOff, at(half.minute)));
        const { world } = lifeOf([...second, { t: 'worker' }], { ...half, stream });
        const result = replayDecisions(world.stream.events);
        expect(result.mismatches).toEqual([]);
        expect(result.state).toEqual(replay(world.stream.events));
        expect(result.state).toEqual(world.stream.state);
      }),
      RUNS,
    );
  });
});
