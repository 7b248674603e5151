import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { decideNextAction } from '../scheduler/decide-next-action';
import { at, cmd, registered } from '../testing/fixtures';
import { tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { whyNot } from './why-not';

// Issue 19 item 5: why is this item not next. Given an agent's history, when the view is asked
// about one item at NOW, then it names the verdict, where the item stands on the ladder, what
// ranks before it, what holds it and the events that would make it next.

const NOW = at(60);
const agent = [registered()];
const view = (events: AgentEvent[], id: string, now = NOW) => whyNot(replay(events), id, now)!;

/** The scheduler carries out its tick decision (SystemTickEmitted and the tick message). */
function tick(events: AgentEvent[], messageId: string): AgentEvent[] {
  const decision = decideNextAction(replay(events), NOW);
  const command = {
    type: 'EmitSystemTick',
    data: { decision, message_id: messageId },
    meta: { now: NOW, command_id: 'c' },
  };
  return history(events, command as AgentCommand);
}

describe('whyNot', () => {
  describe('given an unknown item', () => {
    it('answers null (the caller says not found), unless it was archived', () => {
      expect(whyNot(replay(agent), 'w-x', NOW)).toBeNull();
      const archived = whyNot(replay(agent), 'w-x', NOW, { archived: true })!;
      expect(archived).toMatchObject({ verdict: 'archived', item: null, standing: null, next_events: [] });
      expect(archived.summary).toContain('archived');
    });
  });

  describe('given the runnable focus', () => {
    const focused = history(agent, cmd.create('w-1'), cmd.pick('w-1'));

    it('says it is next: rung 5 continue_active decides a tick for it', () => {
      const why = view(focused, 'w-1');
      expect(why).toMatchObject({
        verdict: 'next',
        standing: {
          rung: 5,
          rule: 'continue_active',
          tick_key: 'work_queue:continue_active:w-1:1',
          tick_emitted: false,
        },
        decision: { kind: 'EmitSystemTick', reason: 'continue_active', work_item_id: 'w-1' },
        ranks_before: [],
        blockers: [],
        next_events: [],
      });
      expect(why.ladder.find((step) => step.applies)).toMatchObject({ rung: 5, concerns_item: true });
    });

    it('stays next once its tick is queued: rung 3 starts a turn on the tick message', () => {
      const why = view(tick(focused, 'm-tick'), 'w-1');
      expect(why).toMatchObject({ verdict: 'next', standing: { rung: 3, rule: 'queue_head', rank: 1, of: 1 } });
      expect(why.decision).toMatchObject({ kind: 'StartModelTurn', message_id: 'm-tick' });
    });

    it('says a turn works on it once the turn starts', () => {
      const turned = history(tick(focused, 'm-tick'), tcmd.startTurn('turn-1', 'm-tick'));
      const why = view(turned, 'w-1');
      expect(why).toMatchObject({ verdict: 'in_turn', standing: { rung: 2, rule: 'open_turn' } });
      expect(why.next_events[0]).toMatchObject({ event: 'TurnTerminal', id: 'turn-1' });
    });

    it('says its tick was surfaced once a turn that changed nothing consumed the key', () => {
      const turned = history(
        tick(focused, 'm-tick'),
        tcmd.startTurn('turn-1', 'm-tick'),
        tcmd.terminal('turn-1', 'completed'),
      );
      const why = view(turned, 'w-1');
      expect(why.verdict).toBe('surfaced');
      expect(why.blockers).toEqual([
        expect.objectContaining({ kind: 'tick_emitted', id: 'work_queue:continue_active:w-1:1' }),
      ]);
      expect(why.next_events[0]).toMatchObject({ event: 'WorkItemUpdated', id: 'w-1' });
    });
  });

  describe('given queued items', () => {
    const queued = history(agent, cmd.create('w-1'), cmd.create('w-2'), cmd.create('w-3'));

    it('names the first as next and ranks the others behind it (rung 7 offers only the first)', () => {
      expect(view(queued, 'w-1')).toMatchObject({ verdict: 'next', standing: { rung: 7, rank: 1, of: 3 } });
      const third = view(queued, 'w-3');
      expect(third).toMatchObject({
        verdict: 'ranked_behind',
        standing: { rung: 7, rule: 'queued_available', rank: 3, of: 3 },
      });
      expect(third.ranks_before.map((r) => [r.rung, r.kind, r.id])).toEqual([
        [7, 'work_item', 'w-1'],
        [7, 'work_item', 'w-2'],
      ]);
      expect(third.ranks_before_total).toBe(2);
      expect(third.next_events.map((e) => e.event)).toEqual(['WorkItemUpdated', 'WorkItemPicked']);
      expect(third.summary).toMatch(/^ranked behind; rung 7 \(queued_available\), #3 of 3; w-1 ranks before it/);
    });

    it('ranks the runnable focus and a queued message before a queued item', () => {
      const busy = history(queued, cmd.pick('w-1'), wcmd.enqueue('m-op', { kind: 'operator_prompt' }));
      const why = view(busy, 'w-2');
      expect(why.verdict).toBe('ranked_behind');
      expect(why.ranks_before.map((r) => [r.rule, r.id])).toEqual([
        ['queue_head', 'm-op'],
        ['continue_active', 'w-1'],
      ]);
      expect(why.next_events[0]).toMatchObject({ event: 'MessageProcessed' });
    });
  });

  describe('given an item that waits', () => {
    it('names an operator wait and the answer that frees it', () => {
      const waiting = history(agent, cmd.create('w-1'), wcmd.waitFor('i-1', 'w-1'));
      const why = view(waiting, 'w-1');
      expect(why).toMatchObject({ verdict: 'waiting', standing: { rung: 9, rule: 'waits' } });
      expect(why.blockers.map((b) => [b.kind, b.id])).toEqual([
        ['wait', 'i-1'],
        ['blocked_by', null],
      ]);
      expect(why.next_events[0]).toMatchObject({ event: 'WaitingIntentTriggered', id: 'i-1' });
      expect(why.decision).toMatchObject({ kind: 'WaitForOperator', work_item_id: 'w-1' });
    });

    it('names the timer that would fire', () => {
      const timed = history(
        agent,
        cmd.create('w-1'),
        wcmd.waitFor('i-1', 'w-1', { wake: 'timer', fire_at: at(90), timer_id: 't-1' }),
      );
      const why = view(timed, 'w-1');
      expect(why.verdict).toBe('waiting');
      expect(why.blockers[0]).toMatchObject({ kind: 'wait', id: 'i-1', until: at(90) });
      expect(why.next_events[0]).toMatchObject({ event: 'TimerFired', id: 't-1', at: at(90) });
      expect(why.next_events[0].description).toContain('the timer t-1 fires');
    });

    it('names the task that would end', () => {
      const tasked = history(
        agent,
        cmd.create('w-1'),
        wcmd.createTask('t-1', { work_item_id: 'w-1' }),
        wcmd.waitFor('i-1', 'w-1', { wake: 'task_result', resource: 't-1' }),
      );
      const why = view(tasked, 'w-1');
      expect(why.blockers[0].detail).toContain('waits for task t-1');
      expect(why.next_events[0]).toMatchObject({ event: 'TaskCompleted', id: 't-1' });
      expect(why.next_events[0].description).toContain('task t-1 ends');
    });

    it('says needs_input waits for the operator', () => {
      const needs = history(agent, cmd.create('w-1', { plan_status: 'needs_input' }));
      const why = view(needs, 'w-1');
      expect(why.verdict).toBe('waiting');
      expect(why.blockers.map((b) => b.kind)).toEqual(['needs_input']);
      expect(why.next_events[0]).toMatchObject({ event: 'WorkItemUpdated' });
    });

    it('says a triggered item is next: rung 6 surfaces it whatever its blocker', () => {
      const triggered = history(
        agent,
        cmd.create('w-1'),
        wcmd.waitFor('i-1', 'w-1', { wake: 'external', resource: 'pr-7', callback_token_hash: 'sha256:x' }),
        wcmd.trigger('i-1'),
        tcmd.reduce('m-i-1'),
      );
      const why = view(triggered, 'w-1');
      expect(why).toMatchObject({ verdict: 'next', standing: { rung: 6, rule: 'triggered_review', rank: 1 } });
      expect(why.blockers).toEqual([]);
    });
  });

  describe('given an item blocked without a wait', () => {
    const blocked = history(agent, cmd.create('w-1'), cmd.update('w-1', { blocked_by: 'review', recheck_at: at(90) }));

    it('says it is blocked until its recheck, and the recheck makes it next once due', () => {
      const why = view(blocked, 'w-1');
      expect(why).toMatchObject({
        verdict: 'blocked',
        standing: { rung: 8, rule: 'work_item_recheck', recheck_due_at: at(90), recheck_due: false },
      });
      expect(why.blockers).toEqual([expect.objectContaining({ kind: 'blocked_by', until: at(90) })]);
      expect(why.next_events.map((e) => [e.event, e.at])).toEqual([
        ['WorkItemUpdated', null],
        ['SystemTickEmitted', at(90)],
      ]);
      expect(view(blocked, 'w-1', at(90))).toMatchObject({ verdict: 'next', standing: { recheck_due: true } });
    });

    it('says nothing but an update frees a blocker without recheck (rung 10)', () => {
      const stuck = history(agent, cmd.create('w-1'), cmd.update('w-1', { blocked_by: 'review' }));
      const why = view(stuck, 'w-1');
      expect(why).toMatchObject({ verdict: 'blocked', standing: { rung: 10, rule: 'idle' } });
      expect(why.next_events).toEqual([
        expect.objectContaining({ event: 'WorkItemUpdated', description: 'blocked_by is cleared' }),
      ]);
    });
  });

  describe('given an agent that holds the ladder', () => {
    const queued = history(agent, cmd.create('w-1'));

    it('says a stopped agent holds it, and start frees it', () => {
      const why = view(history(queued, wcmd.control('stop')), 'w-1');
      expect(why.verdict).toBe('held');
      expect(why.ranks_before[0]).toMatchObject({ rung: 1, rule: 'gate', kind: 'agent' });
      expect(why.next_events[0]).toMatchObject({ event: 'AgentStarted' });
    });

    it('says a paused agent holds it, and resume frees it', () => {
      const why = view(history(queued, wcmd.control('pause')), 'w-1');
      expect(why.verdict).toBe('held');
      expect(why.next_events[0]).toMatchObject({ event: 'AgentResumed' });
    });

    it('says a dead letter parks the agent (an input: the stream does not know it)', () => {
      const dead_letter = { projection: 'read_models', position: '42', revision: '3', event_type: 'WorkItemUpdated' };
      const why = whyNot(replay(queued), 'w-1', NOW, { dead_letter })!;
      expect(why.verdict).toBe('held');
      expect(why.blockers[0]).toMatchObject({ kind: 'agent_parked', id: '42' });
      expect(why.next_events[0]).toMatchObject({ event: null });
    });
  });

  describe('given a completed item', () => {
    it('says it is completed, with nothing to wait for', () => {
      const done = history(agent, cmd.create('w-1'), cmd.complete('w-1'));
      expect(view(done, 'w-1')).toMatchObject({ verdict: 'completed', standing: null, blockers: [], next_events: [] });
    });
  });
});
