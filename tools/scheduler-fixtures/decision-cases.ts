import { cmd, tcmd, wcmd } from '@app/domain/testing';
import { agent, create, externalWait, operatorPrompt, type SchedulerCase } from './case-helpers';

// One case per decision kind (docs/domain-contract.md §5), named `decision-<kind>`, plus whole lives written by the worker.

export const DECISION_CASES: SchedulerCase[] = [
  {
    name: 'decision-start-model-turn',
    expect: { kind: 'StartModelTurn', reason: 'operator_input' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-1'), cmd.pick('w-1'), operatorPrompt('m-op', 'please add a changelog entry'));
      return {
        stream: s,
        meta: { description: 'An operator prompt is queued: it re-enters the model (StartModelTurn, operator_input).' },
      };
    },
  },
  {
    name: 'decision-reduce-message-only',
    expect: { kind: 'ReduceMessageOnly', reason: 'task_result_not_for_focus' },
    build() {
      const s = agent(this.name);
      s.run(
        create(s, 'w-1'),
        wcmd.createTask('t-lint', { work_item_id: 'w-1' }),
        wcmd.taskStatus('t-lint', 'running'),
        wcmd.taskStatus('t-lint', 'completed', { detail: 'clean' }),
      );
      return {
        stream: s,
        meta: {
          description:
            'A task result for an item that is not the focus, with no wait on it: reduced without the model (the item surfaces as queued work instead).',
        },
      };
    },
  },
  {
    name: 'decision-emit-system-tick',
    expect: { kind: 'EmitSystemTick', reason: 'triggered_review' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-pr'), cmd.pick('w-pr'), externalWait('i-pr', 'w-pr', 'pr-7'), wcmd.trigger('i-pr'));
      s.step();
      return {
        stream: s,
        meta: {
          description:
            'The external wait of a blocked item was triggered without a payload; the worker reduced the liveness-only hint tick; now the triggered item is surfaced once (triggered_review).',
        },
      };
    },
  },
  {
    name: 'decision-wait-for-task',
    expect: { kind: 'WaitForTask' },
    build() {
      const s = agent(this.name);
      s.run(
        create(s, 'w-build'),
        cmd.pick('w-build'),
        wcmd.createTask('t-build', { work_item_id: 'w-build' }),
        wcmd.taskStatus('t-build', 'running'),
      );
      s.run(
        wcmd.waitFor('i-build', 'w-build', { wake: 'task_result', resource: 't-build', reason: 'the build must pass' }),
      );
      s.settle();
      return {
        stream: s,
        meta: {
          description:
            'The item waits for the result of a running task: WaitForTask names the intent and the task (recorded by the worker).',
        },
      };
    },
  },
  {
    name: 'decision-wait-for-external-change',
    expect: { kind: 'WaitForExternalChange' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-review'), externalWait('i-review', 'w-review', 'pr-12'));
      return {
        stream: s,
        meta: {
          description: 'The only item waits for an external change (a pull request review): WaitForExternalChange.',
        },
      };
    },
  },
  {
    name: 'decision-wait-for-timer',
    expect: { kind: 'WaitForTimer' },
    build() {
      const s = agent(this.name);
      s.run(wcmd.createTimer('tm-check', { duration_ms: 15 * 60_000, resume_text: 'check the deployment' }));
      return {
        stream: s,
        meta: { description: 'A plain timer (no work item, no wait) is scheduled: WaitForTimer names it.' },
      };
    },
  },
  {
    name: 'decision-wait-for-operator',
    expect: { kind: 'WaitForOperator' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-spec'), cmd.pick('w-spec'), cmd.update('w-spec', { plan_status: 'needs_input' }));
      return {
        stream: s,
        meta: { description: 'The focused item was set to needs_input (focus released): WaitForOperator.' },
      };
    },
  },
  {
    name: 'decision-sleep',
    expect: { kind: 'Sleep' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-1'), cmd.complete('w-1'));
      return { stream: s, meta: { description: 'Everything is completed and nothing is awaited: Sleep.' } };
    },
  },
  {
    name: 'decision-stay-idle',
    expect: { kind: 'StayIdle' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-1'), cmd.complete('w-1'));
      s.settle();
      return {
        stream: s,
        meta: {
          description: 'The worker recorded Sleep (AgentSlept, posture asleep): the next idle decision is StayIdle.',
        },
      };
    },
  },
  {
    name: 'decision-stop',
    expect: { kind: 'Stop' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-1'), cmd.pick('w-1'), operatorPrompt('m-op', 'keep going'), wcmd.control('stop'));
      return { stream: s, meta: { description: 'The agent is stopped: Stop, whatever is queued or runnable.' } };
    },
  },
  {
    name: 'decision-noop',
    expect: { kind: 'Noop', reason: 'paused' },
    build() {
      const s = agent(this.name);
      s.run(wcmd.control('pause'), operatorPrompt('m-op', 'while paused'));
      return {
        stream: s,
        meta: { description: 'The agent is paused with an operator prompt queued: Noop paused (messages accumulate).' },
      };
    },
  },
  {
    name: 'work-item-recheck',
    expect: { kind: 'EmitSystemTick', reason: 'work_item_recheck' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-ci'), cmd.update('w-ci', { blocked_by: 'waiting for CI', recheck_at: s.later(10) }));
      s.advance(15);
      return {
        stream: s,
        meta: {
          description:
            'A blocked item whose recheck_at has passed (now is 15 minutes after the last event): a background work_item_recheck tick.',
          now: s.now,
        },
      };
    },
  },
  {
    name: 'scheduler-worker-life',
    expect: { kind: 'StayIdle' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-1'), cmd.pick('w-1'));
      s.settle();
      s.step('turn-1');
      s.host(
        tcmd.round('turn-1', 'r-1', 'Done: the parser handles every case.'),
        tcmd.completeIn('w-1', 'r-1'),
        tcmd.terminal('turn-1', 'completed', 'bye'),
      );
      s.settle();
      s.run(wcmd.createTimer('tm-1', { duration_ms: 10 * 60_000, resume_text: 'look at the nightly run' }));
      s.settle();
      s.advance(11);
      s.settle();
      s.step('turn-2');
      s.host(tcmd.terminal('turn-2', 'completed', 'nightly run is fine'));
      s.settle();
      s.step();
      return {
        stream: s,
        meta: {
          description:
            'A life written by the worker: continue_active tick, a turn that completes and promotes its report, a timer that fires into a second turn, Sleep, then StayIdle.',
        },
      };
    },
  },
];
