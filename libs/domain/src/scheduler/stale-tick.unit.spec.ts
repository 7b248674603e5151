import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { given } from '../testing/decider-spec';
import { at, cmd, registered } from '../testing/fixtures';
import { nextDecision, tcmd } from '../testing/turn-fixtures';
import { history } from '../testing/waiting-fixtures';
import { decideNextAction } from './decide-next-action';
import type { AgentCommand } from '../agent/agent.commands';

// Issue 15 item 7: a queued_available / continue_active tick whose item no longer matches its key
// is reduced (liveness only) with evidence stale_tick, never served as a model turn.

const agent = [
  registered(),
  {
    type: 'AgentStarted',
    data: { agent_id: 'agent-1', previous_posture: 'booting', posture: 'awake_idle', at: at(0) },
  } as AgentEvent,
];

/** The scheduler's own tick, emitted the way the worker does it. */
function emitTick(events: AgentEvent[], messageId: string): AgentEvent[] {
  const decision = decideNextAction(replay(events), at(60));
  expect(decision.kind).toBe('EmitSystemTick');
  const command = {
    type: 'RecordDecision',
    data: { decision, message_id: messageId },
    meta: { now: at(60), command_id: 'c' },
  } as AgentCommand;
  return history(events, command);
}

describe('stale scheduler ticks', () => {
  const queued = emitTick(history(agent, cmd.create('w-1')), 'm-tick');

  it('a queued_available tick whose item is unchanged starts a model turn', () => {
    expect(nextDecision(queued)).toMatchObject({
      kind: 'StartModelTurn',
      reason: 'scheduler_tick',
      message_id: 'm-tick',
    });
  });

  it.each<[string, AgentCommand]>([
    ['picked', cmd.pick('w-1')],
    ['blocked', cmd.update('w-1', { blocked_by: 'waiting for a review' })],
    ['completed', cmd.complete('w-1')],
  ])('a queued_available tick whose item was %s since is reduced with evidence stale_tick', (_name, change) => {
    const events = history(queued, change);
    const decision = nextDecision(events);
    expect(decision).toMatchObject({
      kind: 'ReduceMessageOnly',
      reason: 'stale_tick',
      liveness_only: true,
      message_id: 'm-tick',
    });
    expect(decision.evidence).toEqual(
      expect.arrayContaining(['stale_tick', 'tick_key:work_queue:queued_available:w-1:1']),
    );
    given(events).when(tcmd.startTurn('turn-1', 'm-tick')).thenThrows('conflict', { rule: 'stale_decision' });
  });

  it('a continue_active tick whose focus was blocked since is reduced, and one still matching is served', () => {
    const active = emitTick(history(agent, cmd.create('w-1'), cmd.pick('w-1')), 'm-tick');
    expect(replay(active).messages.get('m-tick')!.correlation_id).toBe('work_queue:continue_active:w-1:1');
    expect(nextDecision(active)).toMatchObject({ kind: 'StartModelTurn', reason: 'scheduler_tick' });
    const blocked = history(active, cmd.update('w-1', { blocked_by: 'the deploy' }));
    expect(nextDecision(blocked)).toMatchObject({ kind: 'ReduceMessageOnly', reason: 'stale_tick' });
    expect(nextDecision(blocked).evidence).toContain('work_item_now:open:not_runnable:revision_2');
  });
});
