import { cmd, tcmd, wcmd } from '@app/domain/testing';
import { agent, create, operatorPrompt, type SchedulerCase } from './case-helpers';

// Issue 15 items 4-6 (docs/domain-contract.md §3 Tasks, §4; ADR 0021). Each `expect` is written
// by hand from the rule, not read back from the code: the generator refuses a case that decides
// otherwise.

const TEN_MINUTES = 600_000;

export const CONTRACT_CASES_2: SchedulerCase[] = [
  {
    name: 'contract-pause-requeues-turn-message',
    // Rule: a turn the host aborts while paused gives its message back to `queued`; on resume
    // the message is replayed: a model turn on the same operator prompt.
    expect: { kind: 'StartModelTurn', reason: 'operator_input' },
    build() {
      const s = agent(this.name);
      s.run(operatorPrompt('m-op', 'summarise the incident'));
      s.step('turn-1');
      s.run(wcmd.control('pause'));
      s.host(tcmd.heartbeat('turn-1'), tcmd.terminal('turn-1', 'aborted'));
      s.run(wcmd.control('resume'));
      return {
        stream: s,
        meta: {
          description:
            'Paused during a turn: the heartbeat asked to cancel, the host aborted the turn, its message went back to the queue (MessageRequeued cause paused); after resume the same prompt starts a model turn again.',
        },
      };
    },
  },
  {
    name: 'contract-stop-aborts-turn-message',
    // Rule: after stop the aborted turn's message is `aborted` (as before) and nothing runs.
    expect: { kind: 'Stop' },
    build() {
      const s = agent(this.name);
      s.run(operatorPrompt('m-op', 'rotate the keys'));
      s.step('turn-1');
      s.run(wcmd.control('stop'));
      s.host(tcmd.heartbeat('turn-1'), tcmd.terminal('turn-1', 'aborted'));
      return {
        stream: s,
        meta: {
          description:
            'Stopped during a turn: the host learnt it from the heartbeat and aborted the turn; the message is aborted (not replayed) and the agent stays stopped.',
        },
      };
    },
  },
  {
    name: 'contract-task-lease-expired',
    // Rule: a lapsed task lease interrupts the task (lease_expired), triggers its task_result
    // wait and queues the task_result; the triggered blocked item is then surfaced for review.
    expect: { kind: 'EmitSystemTick', reason: 'triggered_review' },
    build() {
      const s = agent(this.name);
      s.run(
        create(s, 'w-build'),
        cmd.pick('w-build'),
        wcmd.createTask('t-build', {
          work_item_id: 'w-build',
          wait_policy: 'blocking',
          expected_duration_ms: TEN_MINUTES,
        }),
        wcmd.taskStatus('t-build', 'running'),
        wcmd.waitFor('i-build', 'w-build', { wake: 'task_result', resource: 't-build' }),
      );
      s.settle();
      s.advance(11);
      s.step();
      return {
        stream: s,
        meta: {
          description:
            'The executor of a blocking task stopped heartbeating: at its lease end the worker interrupted it (TaskInterrupted reason lease_expired), triggered the wait on it and queued the task_result; the triggered item is surfaced (a later result from the executor would still be delivered).',
        },
      };
    },
  },
  {
    name: 'contract-completion-without-round',
    // Rule: completing in a turn without round_id skips the report promotion and says so on the
    // completion event; nothing is left to do afterwards.
    expect: { kind: 'Sleep' },
    build() {
      const s = agent(this.name);
      s.run(create(s, 'w-1'), cmd.pick('w-1'), operatorPrompt('m-op', 'finish w-1'));
      s.step('turn-1');
      s.host(tcmd.round('turn-1', 'r-1', 'Done: shipped.'), cmd.complete('w-1'), tcmd.terminal('turn-1', 'completed'));
      return {
        stream: s,
        meta: {
          description:
            'The host completed its focus without naming its open round: WorkItemCompleted says report_promotion skipped_no_round and no report is promoted; the agent then sleeps.',
        },
      };
    },
  },
];
