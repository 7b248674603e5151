import { replay } from '../agent/agent.evolve';
import { at, created, NOW, picked, registered } from '../testing/fixtures';
import { runCommand } from '../testing/run-command';
import { call, nextDecision, tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';
import { contextProjection } from '../views/context';
import { toDecisionView } from '../views/decision.view';
import { renderActivationReply } from './activation.replies';
import {
  renderCloseRoundReply,
  renderHeartbeatReply,
  renderRecordRoundReply,
  renderTurnTerminalReply,
} from './turn.replies';
import { listBriefs } from '../views/turn.view';

const focused = [registered(), created('w-1'), picked('w-1')];
const queued = history(focused, wcmd.enqueue('m-1'));
const started = history(queued, tcmd.startTurn('t-1', 'm-1'));
const TURN = { turn_id: 't-1', turn_index: 1, lease_expires_at: '2026-01-01T01:01:00.000Z', work_item_id: 'w-1' };

describe('turn replies', () => {
  it('Heartbeat: the renewed turn and the interjections', () => {
    const busy = history(started, wcmd.enqueue('m-i', { priority: 'interject' }));
    expect(runCommand(busy, tcmd.heartbeat('t-1', at(61)), renderHeartbeatReply)).toEqual({
      turn: { ...TURN, lease_expires_at: '2026-01-01T01:02:00.000Z' },
      posture: 'awake_running',
      cancel_requested: false,
      interjections: [expect.objectContaining({ id: 'm-i', status: 'interjected', body: 'body of m-i' })],
      warnings: [],
    });
  });

  const completed = history(started, tcmd.round('t-1', 'r-1', 'Fixed.', [call('c-1')]), tcmd.completeIn('w-1', 'r-1'));

  it('CloseRound: {promotion, warnings}, the same when repeated', () => {
    const promotion = { work_item_id: 'w-1', delivery_summary_id: 'ds_r-1', brief_id: 'brief_round_r-1' };
    expect(runCommand(completed, tcmd.closeRound('t-1', 'r-1'), renderCloseRoundReply)).toEqual({
      promotion,
      warnings: [],
    });
    const closed = history(completed, tcmd.closeRound('t-1', 'r-1'));
    expect(runCommand(closed, tcmd.closeRound('t-1', 'r-1'), renderCloseRoundReply)).toEqual({
      promotion,
      warnings: [],
    });
  });

  it('RecordRound: the round and the outcome of the round it closed', () => {
    const empty = history(started, tcmd.round('t-1', 'r-1'), tcmd.completeIn('w-1', 'r-1'));
    const reply = runCommand(empty, tcmd.round('t-1', 'r-2', 'next'), renderRecordRoundReply);
    expect(reply).toMatchObject({
      round: { round_id: 'r-2', status: 'open', text: 'next' },
      closed_round: { round_id: 'r-1', promotion: null, warnings: [{ kind: 'missing_completion_report' }] },
      warnings: [{ kind: 'missing_completion_report' }],
    });
  });

  it('TurnTerminal: the ended turn, its message, its brief', () => {
    const reply = runCommand(started, tcmd.terminal('t-1', 'failed', 'boom'), renderTurnTerminalReply);
    expect(reply).toMatchObject({
      turn: { turn_id: 't-1', status: 'closed', terminal: { terminal_kind: 'failed' } },
      message: { id: 'm-1', status: 'processed' },
      brief: { id: 'brief_turn_t-1', kind: 'failure', text: 'boom', work_item_id: 'w-1', created_at: NOW },
      recovery: null,
      warnings: [],
    });
  });
});

describe('the activation reply and the scheduler views', () => {
  it('toDecisionView has every docs/api.md field, null when absent', () => {
    expect(toDecisionView(nextDecision([registered()]), NOW)).toEqual({
      kind: 'Sleep',
      reason: 'no_runnable_work',
      model_reentry: false,
      liveness_only: false,
      message_id: null,
      work_item_id: null,
      task_id: null,
      idempotency_key: null,
      evidence: ['queue_empty', 'no_runnable_work'],
      recorded_at: NOW,
    });
  });

  it('an activation returns the decision, and for a model turn the turn, message and context', () => {
    const decision = nextDecision(queued);
    const after = replay(started);
    const context = contextProjection(after);
    expect(renderActivationReply({ decision, recorded_at: NOW, after, turn_id: 't-1', context })).toEqual({
      decision: toDecisionView(decision, NOW),
      turn: TURN,
      message: expect.objectContaining({ id: 'm-1' }),
      context,
    });
    expect(
      renderActivationReply({ decision: nextDecision(focused), recorded_at: NOW, after: replay(focused) }),
    ).toEqual({
      decision: expect.objectContaining({ kind: 'EmitSystemTick' }),
    });
  });

  it('lists briefs newest first, by kind and item', () => {
    const state = replay(history(completedAndFailed(), tcmd.terminal('t-2', 'failed', 'nope', at(70))));
    expect(listBriefs(state).items.map((b) => [b.id, b.kind])).toEqual([
      ['brief_turn_t-2', 'failure'],
      ['brief_round_r-1', 'result'],
    ]);
    expect(listBriefs(state, { kind: 'result' }).total).toBe(1);
  });
});

function completedAndFailed() {
  return history(
    started,
    tcmd.round('t-1', 'r-1', 'Fixed.'),
    tcmd.completeIn('w-1', 'r-1'),
    tcmd.terminal('t-1', 'completed', 'Fixed.'),
    wcmd.enqueue('m-2'),
    tcmd.startTurn('t-2', 'm-2', at(69)),
  );
}
