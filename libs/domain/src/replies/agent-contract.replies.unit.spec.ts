import { replay } from '../agent/agent.evolve';
import { given } from '../testing/decider-spec';
import { at, cmd, created, meta, picked, registered } from '../testing/fixtures';
import { runCommand } from '../testing/run-command';
import { tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { renderCompleteWorkItemReply } from './agent.replies';
import { renderTaskHeartbeatReply, renderUpdateTaskStatusReply } from './runtime.replies';
import { renderHeartbeatReply } from './turn.replies';

// The replies of issue 15 items 4-6 (docs/domain-contract.md §3 Tasks, §4; docs/api.md).
const focused = [registered(), created('w-1'), picked('w-1')];
const started = history(focused, wcmd.enqueue('m-1'), tcmd.startTurn('t-1', 'm-1'));

describe('the heartbeat reply carries the posture and cancel_requested', () => {
  it.each([
    ['running', started, 'awake_running', false],
    ['stopped', history(started, wcmd.control('stop')), 'stopped', true],
    ['paused', history(started, wcmd.control('pause')), 'paused', true],
  ] as const)('%s: posture %s, cancel_requested %s', (_n, events, posture, cancel) => {
    expect(runCommand(events, tcmd.heartbeat('t-1'), renderHeartbeatReply)).toMatchObject({
      posture,
      cancel_requested: cancel,
      interjections: [],
    });
  });
});

describe('the CompleteWorkItem reply warns when the report promotion is skipped', () => {
  const withRound = history(started, tcmd.round('t-1', 'r-1', 'report'));
  it.each([
    ['without round_id', started, cmd.complete('w-1'), null],
    ['naming a closed round', history(withRound, tcmd.closeRound('t-1', 'r-1')), tcmd.completeIn('w-1', 'r-1'), 'r-1'],
  ] as const)('%s', (_n, events, command, round) => {
    expect(runCommand(events, command, renderCompleteWorkItemReply).warnings).toEqual([
      expect.objectContaining({
        kind: 'report_promotion_skipped_no_round',
        work_item_id: 'w-1',
        round_id: round,
        turn_id: 't-1',
      }),
    ]);
  });

  it('no warning naming the open round, nor outside a turn', () => {
    expect(runCommand(withRound, tcmd.completeIn('w-1', 'r-1'), renderCompleteWorkItemReply).warnings).toEqual([]);
    expect(runCommand(focused, cmd.complete('w-1'), renderCompleteWorkItemReply).warnings).toEqual([]);
  });
});

describe('task lease replies', () => {
  const leased = history(
    focused,
    wcmd.createTask('t-1', { expected_duration_ms: 600_000 }),
    wcmd.taskStatus('t-1', 'running'),
  );
  const lapsed = history(leased, {
    type: 'ExpireTaskLease',
    data: { task_id: 't-1', message_id: 'm-lease' },
    meta: meta(at(70)),
  });

  it('the heartbeat answers the task with its renewed lease', () => {
    const command = { type: 'TaskHeartbeat' as const, data: { task_id: 't-1' }, meta: meta(at(65)) };
    expect(runCommand(leased, command, renderTaskHeartbeatReply).task).toMatchObject({
      lease_expires_at: '2026-01-01T01:15:00.000Z',
      last_heartbeat_at: at(65),
    });
  });

  it('a late terminal after a lease interruption is no stale status: no warning', () => {
    given(lapsed)
      .when(wcmd.taskStatus('t-1', 'failed'))
      .thenState((after) => expect(after.tasks.get('t-1')!.status).toBe('failed'));
    expect(runCommand(lapsed, wcmd.taskStatus('t-1', 'failed'), renderUpdateTaskStatusReply).warnings).toEqual([]);
    expect(replay(lapsed).tasks.get('t-1')!.interrupt_reason).toBe('lease_expired');
  });
});
