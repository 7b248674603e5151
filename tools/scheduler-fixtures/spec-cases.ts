import { cmd, call, tcmd, wcmd } from '@app/domain/testing';
import { agent, create, externalWait, operatorPrompt, type SchedulerCase } from './case-helpers';

// The cases docs/domain-contract.md §7 names, in its order.

export const SPEC_CASES: SchedulerCase[] = [
  {
    name: 'basic-focus-queued-needs-input',
    expect: { kind: 'EmitSystemTick', reason: 'continue_active' },
    build() {
      const s = agent(this.name);
      s.run(
        create(s, 'w-focus', {
          todo_list: [
            { text: 'write the parser', state: 'in_progress' },
            { text: 'test it', state: 'pending' },
          ],
        }),
        create(s, 'w-queued'),
        create(s, 'w-input', { plan_status: 'needs_input' }),
        cmd.pick('w-focus', 'start with the parser'),
      );
      return {
        stream: s,
        meta: {
          description:
            'A focused runnable item, a queued runnable one and one that needs input: the focus continues (continue_active); the others are listed in their classes.',
        },
      };
    },
  },
  {
    name: 'agent-scoped-wait',
    expect: { kind: 'WaitForExternalChange' },
    build() {
      const s = agent(this.name);
      s.run(externalWait('i-deploy', null, 'deploy-42', 'ci'));
      s.settle();
      return {
        stream: s,
        meta: {
          description:
            'An agent-scoped external wait and no work items: the agent waits for an external change (no blocker, no item); the worker recorded that decision.',
        },
      };
    },
  },
  {
    name: 'task-presence-is-not-a-wait',
    expect: { kind: 'Sleep' },
    build() {
      const s = agent(this.name);
      s.run(
        create(s, 'w-1'),
        wcmd.createTask('t-build', { work_item_id: 'w-1', wait_policy: 'blocking', summary: 'full build' }),
        wcmd.taskStatus('t-build', 'running'),
        cmd.complete('w-1'),
      );
      return {
        stream: s,
        meta: {
          description:
            'A running blocking task and nothing awaited: the agent sleeps; the task is named as active_task_not_a_wait.',
        },
      };
    },
  },
  {
    name: 'timer-wait',
    expect: { kind: 'WaitForTimer' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-report'), cmd.pick('w-report'));
      s.run(
        wcmd.waitFor('i-later', 'w-report', {
          wake: 'timer',
          reason: 'look again in half an hour',
          fire_at: s.later(30),
          timer_id: 'tm-later',
        }),
      );
      return {
        stream: s,
        meta: {
          description:
            'A work-item timer wait (focus released, item blocked on the wait): the agent waits for the timer.',
        },
      };
    },
  },
  {
    name: 'queued-available',
    expect: { kind: 'EmitSystemTick', reason: 'queued_available' },
    build() {
      const s = agent(this.name);
      s.run(
        create(s, 'w-old'),
        create(s, 'w-new'),
        cmd.update('w-old', { todo_list: [{ text: 'touched', state: 'pending' }] }),
      );
      return {
        stream: s,
        meta: {
          description:
            'Two runnable items and no focus: the oldest-touched one (w-new, since w-old was just updated) is offered by a queued_available tick.',
        },
      };
    },
  },
  {
    name: 'pending-wake-hint',
    expect: { kind: 'EmitSystemTick', reason: 'wake_hint' },
    build() {
      const s = agent(this.name);
      s.run(
        operatorPrompt('m-busy', 'busy'),
        wcmd.wakeHint({ source: 'ci', reason: 'build finished', body: 'build 42 is green', message_id: undefined }),
        wcmd.drop('m-busy'),
      );
      return {
        stream: s,
        meta: {
          description:
            'A wake hint kept pending while the queue was not empty; once the queue is empty it is emitted as a wake_hint tick.',
        },
      };
    },
  },
  {
    name: 'queue-replay-classification',
    expect: { kind: 'Noop', reason: 'turn_in_progress' },
    build() {
      const s = agent(this.name);
      s.run(wcmd.createTask('t-lint'), wcmd.taskStatus('t-lint', 'completed'));
      s.settle();
      s.run(
        operatorPrompt('m-done', 'first'),
        operatorPrompt('m-abort', 'second'),
        operatorPrompt('m-drop', 'third'),
        operatorPrompt('m-open', 'fourth'),
        operatorPrompt('m-wait', 'later', 'background'),
      );
      s.step('turn-1');
      s.run(operatorPrompt('m-interject', 'also this', 'interject'));
      s.host(tcmd.heartbeat('turn-1'), tcmd.terminal('turn-1', 'completed', 'done'));
      s.run(wcmd.drop('m-drop'));
      s.step('turn-2');
      s.host(tcmd.terminal('turn-2', 'aborted'));
      s.step('turn-3');
      return {
        stream: s,
        meta: {
          description:
            'Messages in every status (processed by a turn and by reduction, interjected, aborted, dropped, dequeued by the open turn, queued): only the dequeued and the queued ones replay.',
        },
      };
    },
  },
  {
    name: 'tool-calls-kept-as-evidence',
    expect: { kind: 'StartModelTurn', reason: 'operator_input' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-migrate'), cmd.pick('w-migrate'), operatorPrompt('m-op', 'run the migration'));
      s.step('turn-1');
      s.host(
        tcmd.round('turn-1', 'r-1', 'running the migration', [
          call('tc-migrate', 'shell'),
          call('tc-read', 'read_file'),
        ]),
      );
      s.advance(5);
      s.step();
      return {
        stream: s,
        meta: {
          description:
            'The host died after a round with two tool calls: the lease expired, the message was requeued (RecoveryClassified lists the tool calls) and replays; the tool calls stay in the process trace and are never replayed.',
        },
      };
    },
  },
  {
    name: 'baseline-over-budget-terminal',
    expect: { kind: 'EmitSystemTick', reason: 'queued_available' },
    build() {
      const s = agent(this.name);
      s.run(
        create(s, 'w-1'),
        create(s, 'w-2'),
        cmd.pick('w-1'),
        operatorPrompt('m-big', 'summarise the whole repository'),
      );
      const before = s.revision;
      s.step('turn-1');
      s.host(
        tcmd.round('turn-1', 'r-1', 'the baseline alone exceeds the budget'),
        tcmd.terminal('turn-1', 'baseline_over_budget', 'context too large'),
      );
      return {
        stream: s,
        meta: {
          description:
            'A turn ended baseline_over_budget: its message is processed with a failure brief, not replayed, and the work items and focus are as before the turn.',
          work_items_unchanged_since_revision: before,
        },
      };
    },
  },
];
