import type { AgentCommand } from '../agent/agent.commands';
import { at, cmd, registered } from '../testing/fixtures';
import { nextDecision } from '../testing/turn-fixtures';
import { history, wcmd } from '../testing/waiting-fixtures';

const agent = [registered()];
const base = history(agent, wcmd.createTask('t-1'), wcmd.taskStatus('t-1', 'running'));
const OPERATOR = [cmd.create('w-op', { plan_status: 'needs_input' })];
const TASK = [cmd.create('w-task'), wcmd.waitFor('i-task', 'w-task', { wake: 'task_result', resource: 't-1' })];
const TIMER = [
  cmd.create('w-timer'),
  wcmd.waitFor('i-timer', 'w-timer', { wake: 'timer', fire_at: at(120), timer_id: 'tm-1' }),
];
const EXTERNAL = [
  cmd.create('w-ext'),
  wcmd.waitFor('i-ext', 'w-ext', { wake: 'external', resource: 'pr-7', callback_token_hash: 'sha256:x' }),
];

describe('rung 9: what an idle agent waits for', () => {
  it.each<[string, AgentCommand[], object]>([
    [
      'operator before task, timer and external',
      [...TASK, ...TIMER, ...EXTERNAL, ...OPERATOR],
      { kind: 'WaitForOperator', reason: 'waiting_for_operator', work_item_id: 'w-op' },
    ],
    [
      'task before timer and external',
      [...TIMER, ...EXTERNAL, ...TASK],
      { kind: 'WaitForTask', reason: 'waiting_for_task', task_id: 't-1', work_item_id: 'w-task' },
    ],
    [
      'timer before external',
      [...EXTERNAL, ...TIMER],
      { kind: 'WaitForTimer', reason: 'waiting_for_timer', work_item_id: 'w-timer' },
    ],
    [
      'external alone',
      EXTERNAL,
      { kind: 'WaitForExternalChange', reason: 'waiting_for_external_change', work_item_id: 'w-ext' },
    ],
    ['a plain scheduled timer', [wcmd.createTimer('tm-9', { fire_at: at(90) })], { kind: 'WaitForTimer' }],
    ['an agent-scoped operator wait', [wcmd.waitFor('i-a', null)], { kind: 'WaitForOperator' }],
    [
      'an agent-scoped external wait',
      [wcmd.waitFor('i-a', null, { wake: 'external', resource: 'inbox', callback_token_hash: 'sha256:a' })],
      { kind: 'WaitForExternalChange' },
    ],
  ])('%s', (_name, commands, expected) => {
    expect(nextDecision(history(base, ...commands))).toMatchObject(expected);
  });

  it('names every awaited item, intent, task and timer in the evidence', () => {
    const decision = nextDecision(history(base, ...OPERATOR, ...TASK, ...TIMER, ...EXTERNAL));
    expect(decision.evidence).toEqual([
      'waiting_for_operator:w-op',
      'intent:i-ext:external:w-ext:pr-7',
      'intent:i-task:task_result:w-task:t-1',
      'intent:i-timer:timer:w-timer',
      'task:t-1:running',
      'timer:tm-1:2026-01-01T02:00:00Z',
    ]);
  });
});

describe('rung 10: nothing runnable, nothing awaited', () => {
  it('task presence is not a wait: the agent sleeps and names the task', () => {
    const decision = nextDecision(
      history(agent, wcmd.createTask('t-1', { wait_policy: 'blocking' }), wcmd.taskStatus('t-1', 'running')),
    );
    expect(decision).toMatchObject({ kind: 'Sleep', reason: 'no_runnable_work' });
    expect(decision.evidence).toContain('active_task_not_a_wait:t-1:running');
  });

  it('a blocked item without a wait is named, not awaited', () => {
    const decision = nextDecision(
      history(agent, cmd.create('w-1'), cmd.update('w-1', { blocked_by: 'needs a decision' })),
    );
    expect(decision).toMatchObject({ kind: 'Sleep' });
    expect(decision.evidence).toEqual(['queue_empty', 'no_runnable_work', 'blocked:w-1']);
  });
});
