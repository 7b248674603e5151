import { replay } from '../agent/agent.evolve';
import { at, cmd, registered, todo } from '../testing/fixtures';
import { nextDecision, schedulerStep, tcmd } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';

const agent = [registered()];
const focused = history(agent, cmd.create('w-1'), cmd.pick('w-1'));

describe('the continue_active key of a model turn', () => {
  const ran = history(focused, wcmd.enqueue('m-1'), tcmd.startTurn('t-1', 'm-1'), tcmd.terminal('t-1', 'completed'));

  it('is consumed by a turn that ran with the item focused at that revision', () => {
    const decision = nextDecision(ran);
    expect(decision).toMatchObject({ kind: 'Sleep' });
    expect(decision.evidence).toEqual(
      expect.arrayContaining([
        'duplicate_tick_suppressed',
        'tick_key_already_emitted:work_queue:continue_active:w-1:1',
      ]),
    );
  });

  it('comes back when the turn moved the item to a new revision (progress)', () => {
    const progressed = history(
      focused,
      wcmd.enqueue('m-1'),
      tcmd.startTurn('t-1', 'm-1'),
      cmd.update('w-1', { todo_list: [todo('next step')] }),
      tcmd.terminal('t-1', 'completed'),
    );
    expect(nextDecision(progressed)).toMatchObject({
      kind: 'EmitSystemTick',
      reason: 'continue_active',
      idempotency_key: 'work_queue:continue_active:w-1:2',
    });
  });

  it('is emitted once per revision by the scheduler itself', () => {
    const ticked = schedulerStep(focused);
    expect(replay(ticked).emitted_tick_keys.toJSON()).toHaveProperty(['work_queue:continue_active:w-1:1']);
    const afterTurn = history(ticked, tcmd.startTurn('t-1', 'm-tick'), tcmd.terminal('t-1', 'completed'));
    expect(nextDecision(afterTurn)).toMatchObject({ kind: 'Sleep' });
  });
});

describe('triggered review', () => {
  const waiting = history(
    agent,
    cmd.create('w-1'),
    wcmd.waitFor('i-1', 'w-1', {
      wake: 'external',
      resource: 'pr',
      callback_token_hash: 'sha256:x',
      delivery_mode: 'enqueue_message',
    }),
    wcmd.trigger('i-1', { message_id: 'm-cb-1' }),
    wcmd.drop('m-cb-1'),
  );

  it('is surfaced once per trigger count, and again after a new trigger', () => {
    const surfaced = schedulerStep(waiting);
    expect(replay(surfaced).emitted_tick_keys.toJSON()).toHaveProperty(['work_queue:triggered_review:w-1:1']);
    const quiet = history(surfaced, wcmd.drop('m-tick'));
    expect(nextDecision(quiet)).toMatchObject({ kind: 'WaitForExternalChange' });
    const again = history(quiet, wcmd.trigger('i-1', { message_id: 'm-cb-2' }), wcmd.drop('m-cb-2'));
    expect(nextDecision(again)).toMatchObject({
      reason: 'triggered_review',
      idempotency_key: 'work_queue:triggered_review:w-1:2',
    });
  });

  it('counts every trigger of the item, so a replaced wait triggered once is a new key', () => {
    const surfaced = history(schedulerStep(waiting), wcmd.drop('m-tick'));
    const replaced = history(
      surfaced,
      wcmd.waitFor('i-2', 'w-1', {
        wake: 'external',
        resource: 'pr',
        callback_token_hash: 'sha256:y',
        delivery_mode: 'enqueue_message',
      }),
      wcmd.trigger('i-2', { message_id: 'm-cb-3' }),
      wcmd.drop('m-cb-3'),
    );
    expect(nextDecision(replaced)).toMatchObject({ idempotency_key: 'work_queue:triggered_review:w-1:2' });
  });
});

describe('queued available', () => {
  const two = history(agent, cmd.create('w-a'), cmd.create('w-b'));

  it('surfaces only the first queued item (oldest-touched); once surfaced the scheduler moves on', () => {
    expect(nextDecision(two)).toMatchObject({ reason: 'queued_available', work_item_id: 'w-a' });
    const surfaced = history(schedulerStep(two), wcmd.drop('m-tick'));
    const decision = nextDecision(surfaced);
    expect(decision).toMatchObject({ kind: 'Sleep' });
    expect(decision.evidence).toContain('tick_key_already_emitted:work_queue:queued_available:w-a:1');
  });

  it('never changes the focus', () => {
    const state = replay(schedulerStep(two));
    expect(state.current_work_item_id).toBeNull();
    expect(state.messages.get('m-tick')).toMatchObject({
      kind: 'system_tick',
      work_item_id: 'w-a',
      priority: 'next',
      origin: 'scheduler',
    });
  });
});

describe('recheck', () => {
  const blocked = history(agent, cmd.create('w-1'), cmd.update('w-1', { blocked_by: 'CI', recheck_at: at(90) }));

  it('is not surfaced before recheck_at', () => {
    expect(nextDecision(blocked, at(89))).toMatchObject({ kind: 'Sleep' });
  });

  it('is surfaced once when due, as a background tick', () => {
    const surfaced = schedulerStep(blocked, at(90));
    expect(replay(surfaced).messages.get('m-tick')).toMatchObject({ priority: 'background', work_item_id: 'w-1' });
    expect(nextDecision(history(surfaced, wcmd.drop('m-tick')), at(120))).toMatchObject({ kind: 'Sleep' });
  });

  it('is surfaced again for a new recheck_at', () => {
    const surfaced = history(
      schedulerStep(blocked, at(90)),
      wcmd.drop('m-tick'),
      cmd.update('w-1', { recheck_at: at(100) }),
    );
    expect(nextDecision(surfaced, at(100))).toMatchObject({ reason: 'work_item_recheck' });
  });
});
