import { given } from '../testing/decider-spec';
import { AGENT, at, cmd, created, meta, NOW, registered } from '../testing/fixtures';
import { tcmd } from '../testing/turn-fixtures';
import { wcmd } from '../testing/waiting-fixtures';
import type { AgentCommand } from './agent.commands';
import { decide } from './agent.decide';
import { evolve, replay } from './agent.evolve';
import { initialAgentState } from './agent.state';

describe('RegisterAgent', () => {
  it('registers a new agent', () => {
    given([])
      .when(cmd.register())
      .then([{ type: 'AgentRegistered', data: { agent_id: AGENT, at: NOW } }]);
  });

  it('leaves the agent awake and idle, without focus', () => {
    given([])
      .when(cmd.register())
      .thenState((after) => {
        expect(after).toMatchObject({
          agent_id: AGENT,
          posture: 'awake_idle',
          current_work_item_id: null,
          registered_at: NOW,
        });
      });
  });

  it('refuses a second registration', () => {
    given([registered()]).when(cmd.register()).thenThrows('already_exists', { resource: 'agent', agent_id: AGENT });
  });

  it.each(['', '-leading-dash', 'has space', 'a/b', 'x'.repeat(129)])('refuses the invalid agent id %j', (id) => {
    given([]).when(cmd.register(id)).thenThrows('validation_failed', { field: 'agent_id' });
  });

  it('accepts an id of 128 characters', () => {
    given([])
      .when(cmd.register('a'.repeat(128)))
      .thenState((after) => expect(after.agent_id).toBe('a'.repeat(128)));
  });
});

describe('a command on an unregistered agent', () => {
  it.each<[string, AgentCommand]>([
    ['CreateWorkItem', cmd.create('w-1')],
    ['UpdateWorkItem', cmd.update('w-1', { objective: 'x' })],
    ['PickWorkItem', cmd.pick('w-1')],
    ['CompleteWorkItem', cmd.complete('w-1')],
    ['WaitFor', wcmd.waitFor('i-1', null)],
    ['TriggerWaitingIntent', wcmd.trigger('i-1')],
    ['CancelWaitingIntent', wcmd.cancelIntent('i-1')],
    ['CreateTask', wcmd.createTask('t-1')],
    ['UpdateTaskStatus', wcmd.taskStatus('t-1', 'running')],
    ['CreateTimer', wcmd.createTimer('t-1', { fire_at: NOW })],
    ['CancelTimer', wcmd.cancelTimer('t-1')],
    ['FireTimer', wcmd.fireTimer('t-1', NOW)],
    ['SubmitWakeHint', wcmd.wakeHint()],
    ['EnqueueMessage', wcmd.enqueue('m-1')],
    ['DropMessage', wcmd.drop('m-1')],
    ['Control', wcmd.control('stop')],
    ['StartTurn', tcmd.startTurn('t-1', 'm-1')],
    ['Heartbeat', tcmd.heartbeat('t-1')],
    ['RecordRound', tcmd.round('t-1', 'r-1')],
    ['CloseRound', tcmd.closeRound('t-1', 'r-1')],
    ['TurnTerminal', tcmd.terminal('t-1', 'completed')],
    ['ExpireLease', tcmd.expire('t-1', NOW)],
    [
      'RecordDecision',
      tcmd.recordDecision({ kind: 'Noop', reason: 'x', model_reentry: false, liveness_only: false, evidence: [] }),
    ],
    [
      'EmitSystemTick',
      tcmd.emitTick(
        {
          kind: 'EmitSystemTick',
          reason: 'continue_active',
          model_reentry: false,
          liveness_only: false,
          idempotency_key: 'k',
          evidence: [],
        },
        'm-1',
      ),
    ],
    ['ReduceMessage', tcmd.reduce('m-1')],
  ])('%s is refused as not_found', (_name, command) => {
    given([]).when(command).thenThrows('not_found', { resource: 'agent' });
  });
});

describe('command meta', () => {
  it.each([['not a time'], ['2026-01-01'], ['2026-13-01T00:00:00Z']])('refuses meta.now %j', (now) => {
    const command: AgentCommand = { ...cmd.register(), meta: { now, command_id: 'c' } };
    given([]).when(command).thenThrows('validation_failed', { field: 'meta.now' });
  });

  it('refuses an empty command_id', () => {
    given([])
      .when({ ...cmd.register(), meta: meta(NOW, '') })
      .thenThrows('validation_failed', { field: 'meta.command_id' });
  });
});

describe('the dispatcher', () => {
  it('refuses an unknown command type', () => {
    const bogus = { type: 'Teleport', data: {}, meta: meta() } as unknown as AgentCommand;
    expect(() => decide(bogus, initialAgentState())).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});

describe('evolve', () => {
  it('starts unregistered, booting, at version 0 with empty slices', () => {
    expect(initialAgentState()).toMatchObject({
      agent_id: null,
      posture: 'booting',
      version: 0,
      work_items: {},
      waiting_intents: {},
      tasks: {},
      messages: {},
      queue: [],
      timers: {},
      turns: {},
      pending_wake_hint: null,
      emitted_tick_keys: {},
    });
  });

  it('ignores unknown event types but counts them in the version', () => {
    const before = replay([registered()]);
    const after = evolve(before, { type: 'SomethingFromTheFuture', data: { x: 1 } });
    expect(after).toEqual({ ...before, version: 2 });
  });

  it('counts every event in the version', () => {
    expect(replay([registered(), created('w-1'), created('w-2', { at: at(1) })]).version).toBe(3);
  });

  it('does not mutate the state it is given', () => {
    const before = replay([registered()]);
    const snapshot = JSON.stringify(before);
    evolve(before, created('w-1'));
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  it('replays a tail onto a snapshot like the whole stream', () => {
    const events = [registered(), created('w-1'), created('w-2', { at: at(1) })];
    expect(replay(events.slice(2), replay(events.slice(0, 2)))).toEqual(replay(events));
  });
});
