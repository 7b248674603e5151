import { cmd, tcmd, wcmd } from '@app/domain/testing';
import { agent, create, type SchedulerCase } from './case-helpers';

/*
 * Hand-written oracles (issue 15): one case per rule whose expected decision is written here BY
 * HAND from the rule, not computed from the code. The stream is still written by deciding real
 * commands; the generator puts `oracle` into expected.json as the decision and refuses (in both
 * modes) when the domain decides anything else, so regenerating can never overwrite it.
 * Evidence lines are in the scheduler's order (decide-next-action.ts, message-classification.ts).
 */

const TEN_MINUTES = 600_000;

export const ORACLE_CASES: SchedulerCase[] = [
  {
    name: 'oracle-task-result-reentry',
    oracle: {
      kind: 'StartModelTurn',
      reason: 'task_result_resolved_wait',
      model_reentry: true,
      liveness_only: false,
      links: { message_id: 'm-t-build-completed', work_item_id: 'w-build', task_id: 't-build' },
      idempotency_key: null,
      evidence: [
        'message:m-t-build-completed',
        'message_kind:task_result',
        'priority:next',
        'model_reentry:task_result_resolved_wait',
        'task:t-build',
        'work_item:w-build',
        'intent:i-build',
        'queued_messages:1',
      ],
    },
    build() {
      const s = agent(this.name);
      s.run(
        create(s, 'w-build'),
        cmd.pick('w-build'),
        wcmd.createTask('t-build', { work_item_id: 'w-build' }),
        wcmd.taskStatus('t-build', 'running'),
        wcmd.waitFor('i-build', 'w-build', { wake: 'task_result', resource: 't-build', reason: 'the build must pass' }),
        cmd.update('w-build', { blocked_by: 'the build must pass, then a review' }),
        wcmd.taskStatus('t-build', 'completed', { detail: 'green' }),
      );
      s.settle();
      return {
        stream: s,
        meta: {
          description:
            'Rule (issue 15 item 1): the item waited for its build (WaitFor released the focus) and the agent rewrote its blocker; the build completes, resolving the wait: the task result re-enters the model although nothing is in focus (task_result_resolved_wait).',
        },
      };
    },
  },
  {
    name: 'oracle-task-result-reentry-bound',
    oracle: {
      kind: 'Noop',
      reason: 'turn_in_progress',
      model_reentry: false,
      liveness_only: false,
      links: { message_id: 'm-t-build-failed', work_item_id: 'w-build', task_id: null },
      idempotency_key: null,
      evidence: ['open_turn:turn-1', 'message:m-t-build-failed'],
    },
    build() {
      const s = agent(this.name);
      s.run(
        create(s, 'w-build'),
        cmd.pick('w-build'),
        wcmd.createTask('t-build', { work_item_id: 'w-build' }),
        wcmd.waitFor('i-build', 'w-build', { wake: 'task_result', resource: 't-build', reason: 'the build must pass' }),
        cmd.update('w-build', { blocked_by: 'the build must pass, then a review' }),
        wcmd.taskStatus('t-build', 'failed', { detail: 'lint' }),
      );
      s.step('turn-1');
      return {
        stream: s,
        meta: {
          description:
            "Rule (issue 15 item 1): with no focus, the activation on the task result first picks the result's item (WorkItemPicked, reason reentry) and binds the turn to it: the open turn names w-build.",
        },
      };
    },
  },
  {
    name: 'oracle-timer-wait-resolved',
    oracle: {
      kind: 'EmitSystemTick',
      reason: 'queued_available',
      model_reentry: false,
      liveness_only: false,
      links: { message_id: null, work_item_id: 'w-deploy', task_id: null },
      idempotency_key: 'work_queue:queued_available:w-deploy:3',
      evidence: ['queued_runnable:w-deploy', 'revision:3', 'queued_runnable_count:1'],
    },
    build() {
      const s = agent(this.name);
      s.run(
        create(s, 'w-deploy'),
        cmd.pick('w-deploy'),
        wcmd.waitFor('i-soak', 'w-deploy', {
          wake: 'timer',
          fire_at: s.later(10),
          timer_id: 't-soak',
          reason: 'let the deploy soak',
        }),
      );
      s.advance(11);
      s.step('turn-1');
      s.host(tcmd.terminal('turn-1', 'completed', 'the deploy soaked without alerts'));
      return {
        stream: s,
        meta: {
          description:
            "Rule (issue 15 item 2): the one-shot timer of a timer wait fires and resolves the wait (its blocker, revision 2, is cleared: revision 3); after the timer tick's turn nothing is awaited any more and the item is offered again (queued_available), not WaitForTimer forever.",
        },
      };
    },
  },
  {
    name: 'oracle-interval-timer-paused',
    oracle: {
      kind: 'StartModelTurn',
      reason: 'timer_fire',
      model_reentry: true,
      liveness_only: false,
      links: { message_id: 'm-timer-1', work_item_id: null, task_id: null },
      idempotency_key: null,
      evidence: [
        'message:m-timer-1',
        'message_kind:timer_tick',
        'priority:next',
        'model_reentry:timer_fire',
        'queued_messages:2',
      ],
    },
    build() {
      const s = agent(this.name);
      s.run(
        wcmd.control('start'),
        wcmd.createTimer('t-poll', { fire_at: s.later(10), interval_ms: TEN_MINUTES, resume_text: 'poll the queue' }),
        wcmd.control('pause'),
      );
      s.advance(11);
      s.step();
      s.advance(10);
      s.step();
      s.advance(10);
      s.step();
      s.run(wcmd.control('resume'));
      s.step();
      return {
        stream: s,
        meta: {
          description:
            'Rule (issue 15 item 3): an interval timer (10 min) while the agent is paused for three periods: the first fire is recorded, the next two are held while its tick is pending; on resume one fire is recorded (missed_periods 1): two ticks queued, not four.',
        },
      };
    },
  },
  {
    name: 'oracle-interval-timer-stopped',
    oracle: {
      kind: 'StartModelTurn',
      reason: 'timer_fire',
      model_reentry: true,
      liveness_only: false,
      links: { message_id: 'm-timer-1', work_item_id: null, task_id: null },
      idempotency_key: null,
      evidence: [
        'message:m-timer-1',
        'message_kind:timer_tick',
        'priority:next',
        'model_reentry:timer_fire',
        'queued_messages:1',
      ],
    },
    build() {
      const s = agent(this.name);
      s.run(
        wcmd.control('start'),
        wcmd.createTimer('t-poll', { fire_at: s.later(10), interval_ms: TEN_MINUTES, resume_text: 'poll the queue' }),
        wcmd.control('stop'),
      );
      s.advance(35);
      s.step();
      s.run(wcmd.control('start'));
      s.step();
      return {
        stream: s,
        meta: {
          description:
            'Rule (issue 15 item 3): an interval timer while the agent is stopped: no due fire is recorded; on start one fire is recorded (missed_periods 2): one tick queued.',
        },
      };
    },
  },
  {
    name: 'oracle-stale-tick',
    oracle: {
      kind: 'ReduceMessageOnly',
      reason: 'stale_tick',
      model_reentry: false,
      liveness_only: true,
      links: { message_id: 'm-tick-1', work_item_id: 'w-1', task_id: null },
      idempotency_key: null,
      evidence: [
        'message:m-tick-1',
        'message_kind:system_tick',
        'priority:next',
        'liveness_only:stale_tick',
        'stale_tick',
        'tick_key:work_queue:queued_available:w-1:1',
        'work_item_now:open:runnable:revision_1:focus',
        'queued_messages:1',
      ],
    },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-1'), create(s, 'w-2'));
      s.step();
      s.run(cmd.pick('w-1'));
      return {
        stream: s,
        meta: {
          description:
            'Rule (issue 15 item 7): the worker offered w-1 (queued_available tick), then the agent picked it before the tick was served: the tick no longer matches its key and is reduced with evidence stale_tick.',
        },
      };
    },
  },
];
