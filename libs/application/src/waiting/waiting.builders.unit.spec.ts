import { type AgentEvent, type AgentState, type CommandMeta, decide, evolve, initialAgentState } from '@app/domain';
import type { CommandEnvelope } from '../agents/agent-command.service';
import { authorityOf } from '../messages/message-authority';
import { callbackTokenMatches, parseCallbackToken } from './callback-token';
import { generatedId } from './generated-ids';
import { renderWaitForWithToken, triggerCommand, waitForCommand } from './waiting.builders';

const caller = { tokenName: 'token-1', agents: ['agent-a'], admin: false };
const envelope = (key?: string): CommandEnvelope => ({ agentId: 'agent-a', caller, idempotencyKey: key });
const meta: CommandMeta = { now: '2026-01-01T00:00:00.000Z', command_id: 'k-1' };

const fold = (state: AgentState, events: readonly AgentEvent[]): AgentState => events.reduce(evolve, state);
const registered = (): AgentState =>
  fold(
    initialAgentState(),
    decide({ type: 'RegisterAgent', data: { agent_id: 'agent-a' }, meta }, initialAgentState()),
  );

describe('generated ids', () => {
  it('derives every generated id from the agent and the idempotency key, one prefix per kind', () => {
    expect(generatedId(envelope('k-1'), 'wait')).toBe(generatedId(envelope('k-1'), 'wait'));
    expect(generatedId(envelope('k-1'), 'wait')).not.toBe(generatedId(envelope('k-2'), 'wait'));
    expect(generatedId(envelope('k-1'), 'msg')).toMatch(/^msg_[0-9a-f]{32}$/);
    const keyless = envelope();
    expect(generatedId(keyless, 'task')).toBe(generatedId(keyless, 'task'));
  });
});

describe('WaitFor as the app builds it', () => {
  it('mints a capability token for an external wait and gives the domain only its hash', () => {
    const { command, token } = waitForCommand(envelope('k-1'), meta, null, {
      wake: 'external',
      reason: 'deploy',
      resource: 'ci',
    });
    expect(token).not.toBeNull();
    expect(command.data).toMatchObject({
      scope: 'agent',
      intent_id: generatedId(envelope('k-1'), 'wait'),
      callback_token_hash: token!.hash,
    });
    expect(JSON.stringify(command)).not.toContain(token!.token);
    expect(parseCallbackToken(token!.token)).toEqual({ agentId: 'agent-a', intentId: command.data.intent_id });
    expect(callbackTokenMatches(token!.token, command.data.callback_token_hash!)).toBe(true);
  });

  it('mints no token for other waits, and names a timer only for a timer wait', () => {
    const operator = waitForCommand(envelope('k-1'), meta, 'w-1', { wake: 'operator_input', reason: 'ok?' });
    expect(operator.token).toBeNull();
    expect(operator.command.data).toMatchObject({
      scope: 'work_item',
      work_item_id: 'w-1',
      timer_id: undefined,
      callback_token_hash: undefined,
    });
    const timer = waitForCommand(envelope('k-1'), meta, null, {
      wake: 'timer',
      reason: 'later',
      fire_at: '2026-02-01T00:00:00Z',
    });
    expect(timer.command.data.timer_id).toBe(generatedId(envelope('k-1'), 'timer'));
  });

  it('shows the token only when this call recorded its hash (a repeat rebuilds the reply without it)', () => {
    const before = registered();
    const { command, token } = waitForCommand(envelope('k-1'), meta, null, {
      wake: 'external',
      reason: 'deploy',
      resource: 'ci',
    });
    const events = decide(command, before);
    const after = fold(before, events);
    expect(renderWaitForWithToken(token)(command, before, after, events).callback_token).toBe(token!.token);
    const repeat = waitForCommand(envelope('k-1'), meta, null, { wake: 'external', reason: 'deploy', resource: 'ci' });
    expect(renderWaitForWithToken(repeat.token)(repeat.command, before, after, events)).not.toHaveProperty(
      'callback_token',
    );
  });
});

describe('the trigger and the authority rule', () => {
  it('names the message a delivery may queue from the idempotency key', () => {
    const command = triggerCommand(envelope('k-1'), meta, 'i-1', { source: 'ci', event_id: 'e-1' }, 'callback');
    expect(command.data).toEqual({
      intent_id: 'i-1',
      source: 'ci',
      event_id: 'e-1',
      via: 'callback',
      message_id: generatedId(envelope('k-1'), 'msg'),
    });
  });

  it("gives an operator prompt operator_instruction (its kind and the caller's role decide, docs/decisions/0022)", () => {
    expect(authorityOf('operator_prompt', caller)).toBe('operator_instruction');
  });
});
