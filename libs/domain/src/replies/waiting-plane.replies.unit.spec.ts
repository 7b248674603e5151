import { created, registered } from '../testing/fixtures';
import { runCommand as run } from '../testing/run-command';
import { history, wcmd } from '../testing/waiting-fixtures';
import {
  renderCancelWaitingIntentReply,
  renderSubmitWakeHintReply,
  renderTriggerWaitingIntentReply,
  renderWaitForReply,
} from './waiting-plane.replies';

const open = [registered(), created('w-1')];
const external = { wake: 'external' as const, resource: 'pr/7', callback_token_hash: 'sha256:secret' };
const waiting = history(open, wcmd.waitFor('i-1', 'w-1', external));

describe('WaitFor reply', () => {
  it('returns the intent (never the token hash) and the blocked item', () => {
    const reply = run(open, wcmd.waitFor('i-1', 'w-1', external), renderWaitForReply);
    expect(reply.waiting_intent).toMatchObject({
      id: 'i-1',
      status: 'active',
      triggered: false,
      has_callback_token: true,
      wake: 'external',
    });
    expect(reply.waiting_intent).not.toHaveProperty('callback_token_hash');
    expect(JSON.stringify(reply)).not.toContain('sha256:secret');
    expect(reply.work_item).toMatchObject({
      id: 'w-1',
      blocked_by: 'waiting (i-1)',
      scheduling_state: 'waiting_external',
      has_active_waits: true,
    });
    expect(reply.warnings).toEqual([]);
    expect(reply).not.toHaveProperty('revision');
  });

  it('has a null work item at agent scope', () => {
    expect(run(open, wcmd.waitFor('i-a', null), renderWaitForReply).work_item).toBeNull();
  });
});

describe('TriggerWaitingIntent reply', () => {
  it('says triggered, with the wake hint disposition and the tick', () => {
    const reply = run(waiting, wcmd.trigger('i-1'), renderTriggerWaitingIntentReply);
    expect(reply).toMatchObject({
      status: 'triggered',
      disposition: 'triggered',
      waiting_intent: { trigger_count: 1, triggered: true, status: 'active' },
      message: { id: 'm-i-1', kind: 'system_tick', liveness_only: true },
      warnings: [],
    });
  });

  it('carries the callback_event of an enqueue_message intent, and no disposition', () => {
    const enqueueing = history(open, wcmd.waitFor('i-1', 'w-1', { ...external, delivery_mode: 'enqueue_message' }));
    expect(run(enqueueing, wcmd.trigger('i-1', { payload: 'merged' }), renderTriggerWaitingIntentReply)).toMatchObject({
      status: 'triggered',
      disposition: null,
      message: { kind: 'callback_event', body: 'merged', authority: 'integration_signal' },
    });
  });

  it('reports the status of a cancelled or resolved intent (the app answers 409 / 404)', () => {
    const cancelled = history(waiting, wcmd.cancelIntent('i-1'));
    expect(run(cancelled, wcmd.trigger('i-1'), renderTriggerWaitingIntentReply)).toMatchObject({
      status: 'cancelled',
      message: null,
      disposition: null,
      waiting_intent: { trigger_count: 0 },
    });
    const resolved = history(
      open,
      wcmd.createTask('t-1'),
      wcmd.waitFor('i-2', 'w-1', { wake: 'task_result', resource: 't-1' }),
      wcmd.taskStatus('t-1', 'completed'),
    );
    expect(run(resolved, wcmd.trigger('i-2'), renderTriggerWaitingIntentReply).status).toBe('resolved');
  });
});

describe('CancelWaitingIntent reply', () => {
  it('says whether this command cancelled it', () => {
    expect(run(waiting, wcmd.cancelIntent('i-1'), renderCancelWaitingIntentReply)).toMatchObject({
      cancelled: true,
      waiting_intent: { status: 'cancelled', end_reason: 'cancelled_by_caller' },
    });
    expect(
      run(history(waiting, wcmd.cancelIntent('i-1')), wcmd.cancelIntent('i-1'), renderCancelWaitingIntentReply)
        .cancelled,
    ).toBe(false);
  });
});

describe('SubmitWakeHint reply', () => {
  it.each([
    ['triggered', open, 'system_tick'],
    ['coalesced', history(open, wcmd.enqueue('m-0')), null],
    ['ignored', history(open, wcmd.control('stop')), null],
  ])('carries the disposition %s', (disposition, events, kind) => {
    const reply = run(events, wcmd.wakeHint(), renderSubmitWakeHintReply);
    expect(reply.disposition).toBe(disposition);
    expect(reply.message?.kind ?? null).toBe(kind);
  });
});
