import { replay } from '../agent/agent.evolve';
import { given, givenState } from './decider-spec';
import { AGENT, cmd, NOW, registered } from './fixtures';

describe('the given/when/then helper', () => {
  it('then passes on the exact events', () => {
    given([])
      .when(cmd.register())
      .then([{ type: 'AgentRegistered', data: { agent_id: AGENT, at: NOW } }]);
  });

  it('then fails on different events', () => {
    expect(() => given([]).when(cmd.register()).then([])).toThrow();
  });

  it('thenNothing fails when events are decided', () => {
    expect(() => given([]).when(cmd.register()).thenNothing()).toThrow();
  });

  it('thenThrows fails when nothing is thrown', () => {
    expect(() => given([]).when(cmd.register()).thenThrows('already_exists')).toThrow(/expected DomainError/);
  });

  it('thenThrows fails on another code or details', () => {
    expect(() => given([registered()]).when(cmd.register()).thenThrows('not_found')).toThrow();
    expect(() => given([registered()]).when(cmd.register()).thenThrows('already_exists', { resource: 'x' })).toThrow();
  });

  it('thenState folds the decided events onto the given state', () => {
    given(registered())
      .when(cmd.create('w-1'))
      .thenState((after, events) => {
        expect(events).toHaveLength(1);
        expect(after.version).toBe(2);
      });
  });

  it('givenState decides on a given state instead of a folded stream', () => {
    givenState({ ...replay([registered()]), posture: 'asleep' })
      .when(cmd.create('w-1'))
      .thenState((after, events) => {
        expect(events).toHaveLength(1);
        expect(after.posture).toBe('asleep');
      });
    givenState(replay([registered()]))
      .when(cmd.register())
      .thenThrows('already_exists');
  });
});
