import type { AgentState } from '../agent/agent.state';
import { at, created, registered } from '../testing/fixtures';
import { runCommand as run } from '../testing/run-command';
import { history, wcmd } from '../testing/waiting-fixtures';
import {
  renderCancelTimerReply,
  renderControlReply,
  renderCreateTaskReply,
  renderCreateTimerReply,
  renderDropMessageReply,
  renderEnqueueMessageReply,
  renderUpdateTaskStatusReply,
} from './runtime.replies';

const agent = [registered()];
const withTask = history([...agent, created('w-1')], wcmd.createTask('t-1', { work_item_id: 'w-1' }));

describe('task replies', () => {
  it('returns the task view', () => {
    expect(run([...agent, created('w-1')], wcmd.createTask('t-1'), renderCreateTaskReply)).toEqual({
      task: expect.objectContaining({ id: 't-1', status: 'queued', terminal: false }),
      warnings: [],
    });
  });

  it('warns about a stale status with the current and requested status', () => {
    const done = history(withTask, wcmd.taskStatus('t-1', 'completed'));
    const reply = run(done, wcmd.taskStatus('t-1', 'running'), renderUpdateTaskStatusReply);
    expect(reply.task).toMatchObject({ status: 'completed', terminal: true });
    expect(reply.warnings).toEqual([
      {
        kind: 'stale_task_status_ignored',
        message: expect.any(String),
        current_status: 'completed',
        requested_status: 'running',
      },
    ]);
    expect(run(done, wcmd.taskStatus('t-1', 'failed'), renderUpdateTaskStatusReply).warnings[0]).toMatchObject({
      requested_status: 'failed',
    });
  });

  it('has no warning for a forward move or the same terminal twice', () => {
    expect(run(withTask, wcmd.taskStatus('t-1', 'running'), renderUpdateTaskStatusReply).warnings).toEqual([]);
    const done = history(withTask, wcmd.taskStatus('t-1', 'completed'));
    expect(run(done, wcmd.taskStatus('t-1', 'completed'), renderUpdateTaskStatusReply).warnings).toEqual([]);
  });
});

describe('timer replies', () => {
  const scheduled = history(agent, wcmd.createTimer('t-1', { fire_at: at(90) }));

  it('returns the timer, warning when it is already due', () => {
    expect(run(agent, wcmd.createTimer('t-1', { fire_at: at(90) }), renderCreateTimerReply)).toEqual({
      timer: expect.objectContaining({ id: 't-1', status: 'scheduled', due: null }),
      warnings: [],
    });
    expect(run(agent, wcmd.createTimer('t-1', { duration_ms: 0 }), renderCreateTimerReply).warnings).toEqual([
      expect.objectContaining({ kind: 'timer_already_due' }),
    ]);
  });

  it('says whether a cancel did something', () => {
    expect(run(scheduled, wcmd.cancelTimer('t-1'), renderCancelTimerReply)).toMatchObject({
      cancelled: true,
      timer: { status: 'cancelled' },
    });
  });
});

describe('queue replies', () => {
  it('returns the queued message with its arrival sequence', () => {
    expect(run(agent, wcmd.enqueue('m-1'), renderEnqueueMessageReply)).toEqual({
      message: expect.objectContaining({ id: 'm-1', status: 'queued', seq: 1, priority: 'normal' }),
      warnings: [],
    });
  });

  it('says whether the drop did something, and never shares a JSON body with the state', () => {
    const events = history(agent, wcmd.enqueue('m-1', { body: { a: { b: 1 } } }));
    let after: AgentState | undefined;
    const reply = run(events, wcmd.drop('m-1'), (c, b, a, e) => {
      after = a;
      return renderDropMessageReply(c, b, a, e);
    });
    expect(reply).toMatchObject({ dropped: true, message: { status: 'dropped', body: { a: { b: 1 } } } });
    (reply.message.body as { a: { b: number } }).a.b = 2;
    expect(after?.messages.get('m-1')!.body).toEqual({ a: { b: 1 } });
    expect(run(history(events, wcmd.drop('m-1')), wcmd.drop('m-1'), renderDropMessageReply).dropped).toBe(false);
  });
});

describe('control reply', () => {
  it('returns the agent summary and the posture change', () => {
    expect(run(agent, wcmd.control('pause'), renderControlReply)).toMatchObject({
      agent: { posture: 'paused' },
      previous_posture: 'awake_idle',
      posture: 'paused',
      changed: true,
      warnings: [],
    });
    expect(run(agent, wcmd.control('resume'), renderControlReply)).toMatchObject({
      changed: false,
      posture: 'awake_idle',
    });
  });
});
