import { replay } from '../agent/agent.evolve';
import { at, cmd, registered } from '../testing/fixtures';
import { tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { nextDueAt } from './next-due';

const dueOf = (...commands: Parameters<typeof history>[1][]) => nextDueAt(replay(history([registered()], ...commands)));

describe('nextDueAt: when time alone changes what the scheduler should do', () => {
  it('is null for an idle agent: nothing to wake for', () => {
    expect(dueOf(cmd.create('w-1'))).toBeNull();
  });

  it('is the soonest scheduled timer', () => {
    expect(
      dueOf(wcmd.createTimer('t-late', { fire_at: at(90) }), wcmd.createTimer('t-soon', { fire_at: at(75) })),
    ).toBe(at(75));
  });

  it('forgets cancelled timers', () => {
    expect(dueOf(wcmd.createTimer('t-1', { fire_at: at(75) }), wcmd.cancelTimer('t-1'))).toBeNull();
  });

  it("includes the open turn's lease expiry", () => {
    const events = history([registered()], wcmd.enqueue('m-1'), tcmd.startTurn('turn-1', 'm-1', at(60)));
    expect(nextDueAt(replay(events))).toBe(replay(events).turns.get('turn-1')!.lease_expires_at);
  });

  it('includes the recheck deadline of a blocked item until its tick is emitted', () => {
    expect(dueOf(cmd.create('w-1'), cmd.update('w-1', { blocked_by: 'CI', recheck_at: at(80) }))).toBe(at(80));
  });

  it('ignores recheck_at on an item that is not blocked', () => {
    expect(dueOf(cmd.create('w-1'), cmd.update('w-1', { recheck_at: at(80) }))).toBeNull();
  });
});
