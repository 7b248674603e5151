import type { AgentCommand } from '../agent/agent.commands';
import type { AgentEvent } from '../agent/agent.events';
import { replay } from '../agent/agent.evolve';
import { cmd, registered, todo } from '../testing/fixtures';
import { tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import type { ReminderSettings } from '../views/reminders';
import { renderCloseRoundReply, renderHeartbeatReply, withReminders } from './turn.replies';

// The round-close and heartbeat replies carry the reminders (docs/domain-contract.md §2, Reminders).

const SETTINGS: ReminderSettings = { rounds_without_work_item_change: 3, stale_todo_rounds: 4 };
const given = (...commands: AgentCommand[]): AgentEvent[] => history([registered()], ...commands);
const working = (): AgentCommand[] => [
  cmd.create('w-1', { todo_list: [todo('write the parser', 'in_progress'), todo('ship it')] }),
  cmd.pick('w-1'),
  wcmd.enqueue('m-1'),
  tcmd.startTurn('t-1', 'm-1'),
];
const rounds = (turnId: string, from: number, count: number): AgentCommand[] =>
  Array.from({ length: count }, (_, i) => tcmd.round(turnId, `r-${from + i}`, `round ${from + i}`));

describe('replies with reminders', () => {
  it('rides on the round-close and heartbeat replies (withReminders)', () => {
    const events = given(...working(), ...rounds('t-1', 1, 3));
    const state = replay(events);
    const close = tcmd.closeRound('t-1', 'r-3') as Parameters<typeof renderCloseRoundReply>[0];
    const closed = history(events, close);
    const reply = withReminders(renderCloseRoundReply, SETTINGS)(
      close,
      state,
      replay(closed),
      closed.slice(events.length),
    );
    expect(reply.reminders.map((r) => r.kind)).toEqual(['rounds_without_work_item_change']);
    const beat = tcmd.heartbeat('t-1') as Parameters<typeof renderHeartbeatReply>[0];
    const beaten = history(closed, beat);
    const heartbeat = withReminders(renderHeartbeatReply, SETTINGS)(beat, replay(closed), replay(beaten), []);
    expect(heartbeat.reminders.map((r) => r.kind)).toEqual(['rounds_without_work_item_change']);
  });
});
