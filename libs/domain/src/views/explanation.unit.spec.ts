import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { decideNextAction } from '../scheduler/decide-next-action';
import { at, cmd, registered } from '../testing/fixtures';
import { tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { explainState } from './explanation';

// Issue 15 item 8: the explanation is a domain view; it asks the scheduler's own key test (the
// emitted tick keys are a RecordMap, so an own-property check on it always said "is due").

const agent = [registered()];
const NOW = at(60);

function tick(events: AgentEvent[], messageId: string): AgentEvent[] {
  const decision = decideNextAction(replay(events), NOW);
  const command = {
    type: 'EmitSystemTick',
    data: { decision, message_id: messageId },
    meta: { now: NOW, command_id: 'c' },
  };
  return history(events, command as AgentCommand);
}

describe('explainState', () => {
  const focused = history(agent, cmd.create('w-1'), cmd.pick('w-1'));

  it('says the focus tick is due before it is emitted', () => {
    const [item] = explainState(replay(focused), NOW).work_items;
    expect(item.why).toBe('runnable: the focus; its tick work_queue:continue_active:w-1:1 is due');
  });

  it('says the focus tick was emitted once it was (the emitted branch)', () => {
    const emitted = tick(focused, 'm-tick');
    const explanation = explainState(replay(emitted), NOW);
    expect(explanation.work_items[0].why).toBe(
      'runnable: the focus; its tick work_queue:continue_active:w-1:1 was already emitted or consumed by a turn',
    );
    expect(explanation.decision).toMatchObject({
      kind: 'StartModelTurn',
      reason: 'scheduler_tick',
      message_id: 'm-tick',
    });
  });

  it('says a key consumed by a turn was consumed', () => {
    const turned = history(focused, wcmd.enqueue('m-1'), tcmd.startTurn('turn-1', 'm-1'));
    expect(explainState(replay(turned), NOW).work_items[0].why).toContain('was already emitted or consumed by a turn');
  });

  it('says whether a triggered item was surfaced', () => {
    const waiting = history(
      agent,
      cmd.create('w-1'),
      wcmd.waitFor('i-1', 'w-1', { wake: 'external', resource: 'pr-7', callback_token_hash: 'sha256:x' }),
      wcmd.trigger('i-1'),
      { type: 'ReduceMessage', data: { message_id: 'm-i-1' }, meta: { now: NOW, command_id: 'r' } } as AgentCommand,
    );
    expect(explainState(replay(waiting), NOW).work_items[0].why).toContain(
      'triggered: to be surfaced by work_queue:triggered_review:w-1:1',
    );
    const surfaced = tick(waiting, 'm-tick');
    expect(explainState(replay(surfaced), NOW).work_items[0].why).toContain(
      'triggered: already surfaced (work_queue:triggered_review:w-1:1)',
    );
  });

  it('says whether a recheck is due at now', () => {
    const blocked = history(agent, cmd.create('w-1'), cmd.update('w-1', { blocked_by: 'review', recheck_at: at(90) }));
    expect(explainState(replay(blocked), NOW).work_items[0].why).toContain(`recheck at ${at(90)} (not due yet)`);
    expect(explainState(replay(blocked), at(90)).work_items[0].why).toContain(`recheck at ${at(90)} (due)`);
  });
});
