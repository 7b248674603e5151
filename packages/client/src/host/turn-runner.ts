/**
 * One turn of an agent, as the host runs it (docs/decisions/0029-agent-host.md): rounds through
 * the model, each recorded with its tool calls before the tools run and closed after; heartbeats
 * at a third of the lease in the background; interjections join the next round; cancel_requested
 * (and the host's own stop) end the turn at the next round boundary; the terminal at the end.
 */
import { RuntimeApiError } from '../errors';
import type { ModelAdapter, ModelContext, ModelMessage, ModelResponse } from './model/model-adapter';
import { assistantMessage, toolResultMessage } from './model/model-adapter';
import type { HostClient, HostEvent, HostTool, StopMode, TerminalKind } from './host-types';
import { checkArguments } from './tools';
import { describeError, renderMessage, roundText, toolError, wireId, type HostMessage } from './turn-text';

/** The parts of an activation reply a turn needs. */
export interface OpenedTurn {
  turn: { turn_id: string; work_item_id: string | null };
  message?: HostMessage;
  context?: ModelContext | object;
}

export interface TurnDeps {
  client: HostClient;
  model: ModelAdapter;
  tools: readonly HostTool[];
  instructions?: string;
  leaseTtlMs: number;
  maxRounds: number;
  emit(event: HostEvent): void;
}

/** How the host tells a running turn it is stopping. */
export interface TurnControl {
  /** The stop mode once `stop()` was called, else null. */
  stopping(): StopMode | null;
  /** Fired when `stop()` is called (the model call in flight is aborted unless the mode is `finish`). */
  readonly stopSignal: AbortSignal;
}

type Outcome = { kind: TerminalKind; message?: string } | { kind: null; reason: string };

const isCode = (error: unknown, code: string) => error instanceof RuntimeApiError && error.code === code;
/** A turn that ended under the host (its lease expired, another terminal): 422 turn_not_open. */
const turnLost = (error: unknown) =>
  error instanceof RuntimeApiError && error.status === 422 && /turn/.test(String(error.details?.rule ?? ''));

export class TurnRunner {
  private cancelRequested = false;
  private lost = false;
  private readonly interjections: HostMessage[] = [];
  private readonly modelAbort = new AbortController();

  constructor(
    private readonly deps: TurnDeps,
    private readonly agentId: string,
    private readonly opened: OpenedTurn,
    private readonly control: TurnControl,
  ) {}

  private get turnId(): string {
    return this.opened.turn.turn_id;
  }

  /** Runs the turn to its end; the terminal posted, or null when none was (lost, or abandoned). */
  async run(): Promise<TerminalKind | null> {
    const onStop = () => {
      if (this.control.stopping() !== 'finish') this.modelAbort.abort(new Error('host stopping'));
    };
    this.control.stopSignal.addEventListener('abort', onStop, { once: true });
    if (this.control.stopSignal.aborted) onStop();
    const heartbeat = this.startHeartbeat();
    let outcome: Outcome;
    try {
      outcome = await this.rounds();
    } catch (error) {
      this.deps.emit({ type: 'error', agent_id: this.agentId, turn_id: this.turnId, stage: 'turn', error });
      outcome = this.lost ? { kind: null, reason: 'turn lost' } : { kind: 'failed', message: describeError(error) };
    } finally {
      clearInterval(heartbeat);
      this.control.stopSignal.removeEventListener('abort', onStop);
    }
    if (outcome.kind !== null && this.control.stopping() === 'abandon') outcome = { kind: null, reason: 'abandoned' };
    if (outcome.kind !== null) {
      try {
        await this.deps.client.postTerminal(
          this.agentId,
          this.turnId,
          {
            terminal_kind: outcome.kind,
            ...(outcome.message ? { last_assistant_message: outcome.message.slice(0, 10_000) } : {}),
          },
          { idempotencyKey: `${this.turnId}:terminal` },
        );
      } catch (error) {
        this.deps.emit({ type: 'error', agent_id: this.agentId, turn_id: this.turnId, stage: 'terminal', error });
        outcome = { kind: null, reason: `terminal refused: ${describeError(error)}` };
      }
    }
    this.deps.emit({
      type: 'turn_ended',
      agent_id: this.agentId,
      turn_id: this.turnId,
      terminal_kind: outcome.kind,
      reason: outcome.kind === null ? outcome.reason : (outcome.message ?? outcome.kind),
    });
    return outcome.kind;
  }

  /** At a round boundary: whether (and how) the turn ends here. */
  private boundary(): Outcome | null {
    const stopping = this.control.stopping();
    if (stopping === 'abandon') return { kind: null, reason: 'abandoned' };
    if (this.lost) return { kind: null, reason: 'turn lost (lease expired or ended elsewhere)' };
    if (this.cancelRequested) return { kind: 'aborted', message: 'cancel requested' };
    if (stopping === 'interrupt') return { kind: 'interrupted' };
    return null;
  }

  private async rounds(): Promise<Outcome> {
    const { client, model, tools, maxRounds } = this.deps;
    const messages: ModelMessage[] = [{ role: 'user', content: renderMessage(this.opened.message) }];
    const context = { instructions: this.deps.instructions, ...(this.opened.context ?? {}) } as ModelContext;
    const definitions = tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
    for (let index = 1; ; index++) {
      const end = this.boundary();
      if (end) return end;
      for (const interjection of this.interjections.splice(0)) {
        messages.push({ role: 'user', content: renderMessage(interjection, 'interjection') });
      }
      if (index > maxRounds) return { kind: 'failed', message: `the model asked for more than ${maxRounds} rounds` };
      let response: ModelResponse;
      try {
        response = await model.complete({ context, messages, tools: definitions, signal: this.modelAbort.signal });
      } catch (error) {
        if (this.modelAbort.signal.aborted) continue;
        this.deps.emit({ type: 'error', agent_id: this.agentId, turn_id: this.turnId, stage: 'model', error });
        return { kind: 'failed', message: `the model failed: ${describeError(error)}` };
      }
      const roundId = `${this.turnId}.r${index}`;
      const text = roundText(response);
      const toolCalls = response.tool_calls.map((call) => ({ tool_call_id: wireId(call.id), name: call.name }));
      try {
        await client.recordRound(
          this.agentId,
          this.turnId,
          { round_id: roundId, ...(text !== undefined ? { text } : {}), tool_calls: toolCalls },
          { idempotencyKey: `${this.turnId}:${roundId}` },
        );
      } catch (error) {
        if (isCode(error, 'agent_stopped')) this.cancelRequested = true;
        else if (turnLost(error)) this.lost = true;
        else throw error;
        continue;
      }
      this.deps.emit({
        type: 'round',
        agent_id: this.agentId,
        turn_id: this.turnId,
        round_id: roundId,
        index,
        ...(text !== undefined ? { text } : {}),
        tool_calls: response.tool_calls,
      });
      messages.push(assistantMessage(response));
      if (response.tool_calls.length === 0) return { kind: 'completed', message: response.text };
      for (const call of response.tool_calls) {
        const { value, isError } = await this.runTool(roundId, call);
        messages.push(toolResultMessage(call.id, value, isError));
      }
      try {
        await client.closeRound(this.agentId, this.turnId, roundId, {
          idempotencyKey: `${this.turnId}:${roundId}:close`,
        });
      } catch (error) {
        if (turnLost(error)) this.lost = true;
        else throw error;
      }
    }
  }

  private async runTool(roundId: string, call: ModelResponse['tool_calls'][number]) {
    const tool = this.deps.tools.find((candidate) => candidate.name === call.name);
    let value: unknown;
    let isError = false;
    try {
      if (!tool) throw new Error(`unknown tool "${call.name}"`);
      checkArguments(tool, call.arguments);
      value = await tool.run(call.arguments, {
        client: this.deps.client,
        agentId: this.agentId,
        turnId: this.turnId,
        roundId,
        toolCallId: call.id,
        idempotencyKey: `${this.turnId}:${wireId(call.id)}`.slice(0, 200),
        signal: this.control.stopSignal,
      });
    } catch (error) {
      isError = true;
      value = toolError(error);
    }
    this.deps.emit({
      type: 'tool_call',
      agent_id: this.agentId,
      turn_id: this.turnId,
      round_id: roundId,
      tool_call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      result: value,
      is_error: isError,
    });
    return { value, isError };
  }

  /** Heartbeats at a third of the lease; a reply's interjections and cancel_requested reach the rounds. */
  private startHeartbeat(): ReturnType<typeof setInterval> {
    let inFlight = false;
    const beat = async () => {
      if (inFlight || this.lost || this.control.stopping() === 'abandon') return;
      inFlight = true;
      try {
        const reply = await this.deps.client.heartbeatTurn(this.agentId, this.turnId, {});
        this.interjections.push(...((reply.interjections ?? []) as HostMessage[]));
        if (reply.cancel_requested && !this.cancelRequested) {
          this.cancelRequested = true;
          this.modelAbort.abort(new Error('cancel requested'));
        }
        this.deps.emit({
          type: 'heartbeat',
          agent_id: this.agentId,
          turn_id: this.turnId,
          cancel_requested: reply.cancel_requested,
          interjections: reply.interjections?.length ?? 0,
        });
      } catch (error) {
        if (turnLost(error)) {
          this.lost = true;
          this.modelAbort.abort(new Error('turn lost'));
        }
        this.deps.emit({ type: 'error', agent_id: this.agentId, turn_id: this.turnId, stage: 'heartbeat', error });
      } finally {
        inFlight = false;
      }
    };
    const timer = setInterval(() => void beat(), Math.max(100, Math.floor(this.deps.leaseTtlMs / 3)));
    timer.unref?.();
    return timer;
  }
}
