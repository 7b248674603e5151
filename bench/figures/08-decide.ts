import {
  type AgentCommand,
  type AgentEvent,
  type AgentState,
  type CommandMeta,
  decide,
  decideNextAction,
  evolve,
  initialAgentState,
  RecordMap,
  schedulingIndexOf,
  type WorkItem,
} from '@app/domain';
import { atLeast, atMost, type Check } from '../report';
import type { Figure } from '../support/context';
import { describeProfile, profileWhile } from '../support/profile';
import { logLogSlope, median, msSince, nowNs } from '../support/stats';
import { planArtifact, todoList } from '../support/workload';

const EPOCH = Date.UTC(2026, 0, 1);

const BLOCK = 100;

/**
 * An agent with `items` work items. A block of 100 is decided and folded by the domain
 * (`decide` + `evolve`): every 10th blocked, every 7th completed, every 13th needing input, the
 * rest queued and runnable, no focus (the ladder goes down to queued_available). Larger agents
 * repeat that block's items under new ids and times, and get the scheduling index evolve would
 * have kept (built once from the records), so a size is set up in milliseconds rather than by
 * deciding and folding thousands of commands.
 */
export function agentWithItems(items: number): AgentState {
  const agentId = 'agent-decide';
  let state = initialAgentState();
  let n = 0;
  const apply = (build: (meta: CommandMeta) => AgentCommand) => {
    const meta = { now: new Date(EPOCH + n * 1000).toISOString(), command_id: `c-${n++}` };
    for (const event of decide(build(meta), state)) state = evolve(state, event);
  };
  apply((meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }));
  const id = (i: number) => `w-${i}`;
  const block = Math.min(items, BLOCK);
  for (let i = 0; i < block; i++) {
    apply((meta) => ({
      type: 'CreateWorkItem',
      data: {
        work_item_id: id(i),
        objective: `objective ${i}`,
        plan_status: 'ready',
        todo_list: todoList(i, 3),
        plan_artifact: planArtifact(agentId, id(i), meta.now),
      },
      meta,
    }));
  }
  for (let i = 0; i < block; i++) {
    if (i % 7 === 3) apply((meta) => ({ type: 'CompleteWorkItem', data: { work_item_id: id(i) }, meta }));
    else if (i % 10 === 5)
      apply((meta) => ({
        type: 'UpdateWorkItem',
        data: { work_item_id: id(i), blocked_by: 'waiting for a review' },
        meta,
      }));
    else if (i % 13 === 6)
      apply((meta) => ({ type: 'UpdateWorkItem', data: { work_item_id: id(i), plan_status: 'needs_input' }, meta }));
  }
  if (items <= block) return state;
  const shift = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();
  let workItems: AgentState['work_items'] = RecordMap.empty();
  for (let copy = 0; copy * block < items; copy++) {
    for (let i = 0; i < block && copy * block + i < items; i++) {
      const item = state.work_items.get(id(i))!;
      const offset = copy * 3_600_000;
      const clone = {
        ...item,
        id: id(copy * block + i),
        created_at: shift(item.created_at, offset),
        updated_at: shift(item.updated_at, offset),
      };
      workItems = workItems.set(clone.id, clone as WorkItem);
    }
  }
  const copied = { ...state, work_items: workItems };
  return { ...copied, scheduling_index: schedulingIndexOf(copied) };
}

/** Mean time of evolve for one todo-list update on `state` (the fold every command and projection pays). */
function evolveMs(state: AgentState, ms: number): number {
  const event: AgentEvent = {
    type: 'WorkItemUpdated',
    data: {
      agent_id: 'agent-decide',
      work_item_id: 'w-0',
      todo_list: todoList(7, 3),
      revision: 99,
      at: new Date(EPOCH + 86_400_000).toISOString(),
    },
  };
  let calls = 0;
  const start = nowNs();
  const deadline = start + BigInt(ms * 1e6);
  do {
    evolve(state, event);
    calls += 1;
  } while (nowNs() < deadline);
  return msSince(start) / calls;
}

/** decideNextAction calls per second on `state`, back to back for `ms`. */
function decisionsPerSecond(state: AgentState, ms: number): number {
  const now = new Date(EPOCH + 86_400_000).toISOString();
  let calls = 0;
  const start = nowNs();
  const deadline = start + BigInt(ms * 1e6);
  let last: unknown;
  do {
    for (let i = 0; i < 10; i++) last = decideNextAction(state, now);
    calls += 10;
  } while (nowNs() < deadline);
  if (!last) throw new Error('no decision');
  return calls / (msSince(start) / 1000);
}

/** What would be left to do if figure 8 missed again (it used to: see the note). */
export const DECIDE_FIX_NOTE =
  'How it got here: deciding used to filter and sort every item of a class on every call (O(n log n), 87 decisions/s at 10k items). ' +
  'Evolve now keeps a scheduling index in AgentState (active intents, runnable items in queued order, rechecks by deadline: ' +
  'libs/domain/src/agent/scheduling-index.upkeep.ts), so the ladder down to queued_available reads a few records, not every item. Rungs that ' +
  'still scan the items: waits (operator items) and idle (its evidence names every blocked item), reached only when nothing is ' +
  'runnable. If this misses, profile which rung the decision reached.';

export const decideFigure: Figure = {
  id: 8,
  title: 'decideNextAction on an agent with many work items vs command throughput',
  async run(ctx) {
    const sizes = ctx.scale([100, 1_000, 3_000, 10_000], [100, 300, 1_000]);
    const repetitions = ctx.scale(5, 2);
    const ms = ctx.scale(1000, 100);
    const now = new Date(EPOCH + 86_400_000).toISOString();
    const rates = new Map<number, number>();
    const evolveCost = new Map<number, number>();
    const rows: Array<Array<string | number>> = [];
    let largestState: AgentState | null = null;
    for (const size of sizes) {
      const state = agentWithItems(size);
      decisionsPerSecond(state, ms / 2);
      const rate = median(Array.from({ length: repetitions }, () => decisionsPerSecond(state, ms)));
      rates.set(size, rate);
      evolveMs(state, ms / 4);
      evolveCost.set(size, median(Array.from({ length: repetitions }, () => evolveMs(state, ms / 2))));
      const decision = decideNextAction(state, now);
      rows.push([size, rate, 1e6 / rate, `${decision.kind} (${decision.reason})`, evolveCost.get(size)! * 1000]);
      ctx.log(
        `  ${size} items: ${rate.toFixed(0)} decisions/s (${decision.kind}), evolve ${(evolveCost.get(size)! * 1000).toFixed(0)} µs`,
      );
      largestState = state;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const largest = sizes[sizes.length - 1];
    const decisions = rates.get(largest)!;
    const slope = logLogSlope(sizes.map((size) => [size, 1 / rates.get(size)!] as const));
    const evolveSlope = logLogSlope(sizes.map((size) => [size, evolveCost.get(size)!] as const));
    const commands = ctx.shared.commandRps;
    const ratioCheck = commands === undefined ? null : atLeast(decisions / commands, 10);
    const slopeCheck = atMost(slope, 1.1, '');
    const checks: Check[] = [
      ratioCheck === null
        ? {
            name: `decideNextAction, ${largest.toLocaleString('en-US')} items (no command throughput measured in this run)`,
            measured: { value: decisions, unit: 'decisions/s' },
          }
        : {
            name: `decideNextAction with ${largest.toLocaleString('en-US')} work items vs HTTP command throughput`,
            measured: { value: decisions, unit: 'decisions/s' },
            baseline: { value: commands!, unit: 'commands/s', label: 'HTTP commands (figure 3)' },
            ...ratioCheck,
          },
      {
        name: 'decideNextAction cost growth with the number of items (exponent k of time ~ items^k)',
        measured: { value: slope, unit: '' },
        target: '≤ 1.1',
        met: slopeCheck.met,
      },
      {
        name: `evolve of one work item event at ${largest.toLocaleString('en-US')} items (every command and projection pays it)`,
        measured: { value: evolveCost.get(largest)! * 1000, unit: 'µs' },
        baseline: { value: evolveCost.get(sizes[0])! * 1000, unit: 'µs', label: `${sizes[0]} items` },
        ratio: evolveCost.get(largest)! / evolveCost.get(sizes[0])!,
      },
    ];
    const notes: string[] = [
      `evolve grows with the number of items (exponent ${evolveSlope.toFixed(2)}), but no longer through the records: AgentState keeps ` +
        'them in RecordMaps (libs/domain/src/shared/record-map.ts, docs/decisions/0010-persistent-records.md), so a work item event ' +
        'copies a few 32-wide nodes (under 1 µs at any size here) instead of the whole `work_items` object (about 3 ms for 10k keys ' +
        'before). What still grows is the scheduling index: its sorted id lists (runnable, rechecks) are plain arrays, and re-placing ' +
        'the item an event changed copies them (most of the time left at 10k). A persistent sorted list there would flatten it.',
    ];
    if ((ratioCheck && !ratioCheck.met) || !slopeCheck.met) {
      const { summary } = await profileWhile(async () => decisionsPerSecond(largestState!, ctx.scale(2000, 200)));
      notes.push(
        `Missed: ${decisions.toFixed(0)} decisions/s at ${largest.toLocaleString('en-US')} items` +
          (commands === undefined ? '' : `, ${(decisions / commands).toFixed(2)}x the command rate`) +
          `. ${describeProfile(summary, 'decideNextAction alone (the bench process)')}.`,
      );
      notes.push(DECIDE_FIX_NOTE);
    }
    return {
      method:
        'An AgentState built in memory through the domain (`decide` + `evolve` for a block of 100 work items: every 7th completed, every ' +
        '10th blocked, every 13th needs_input, no focus, so the ladder reaches queued_available; larger agents ' +
        "repeat the block's items under new ids and times). `decideNextAction(state, now)` back to back on one core, " +
        `${repetitions} runs of ${ms} ms per size, medians. The growth exponent is the least-squares slope of log(time per decision) over ` +
        'log(items); 1 is linear (the target allows 10% for noise). Also timed: `evolve` of one todo-list update on the same state.',
      checks,
      tables: [
        {
          title: 'decideNextAction and evolve by number of work items',
          columns: ['work items', 'decisions/s', 'µs per decision', 'decision', 'evolve µs per event'],
          rows,
        },
      ],
      notes,
    };
  },
};
