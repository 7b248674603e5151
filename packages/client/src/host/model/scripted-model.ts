/**
 * A deterministic ModelAdapter for tests and the example agent: it plays a script of rounds, each
 * a fixed round (text and/or tool calls) or a function of what the turn has seen so far (the
 * results of earlier tool calls). It fails with a ScriptedModelError, never silently, when the
 * script runs out, when a tool result is an error the step did not expect, when a tool call has no
 * result, or when it would call a tool the host did not offer.
 */
import { ModelAbortedError, ScriptedModelError } from './errors';
import type {
  JsonRecord,
  ModelAdapter,
  ModelFinishReason,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelToolCall,
  ModelUsage,
} from './model-adapter';

export interface ScriptedToolCall {
  /** Default: `call_<turn>_<round>_<index>` (1-based turn and round, 0-based index). */
  id?: string;
  name: string;
  arguments?: JsonRecord;
}

export interface ScriptedRound {
  text?: string;
  tool_calls?: ScriptedToolCall[];
  /** Default: `tool_calls` when the round calls tools, else `stop`. */
  finish_reason?: ModelFinishReason;
  usage?: ModelUsage;
  /** The results this step receives (of the previous round's tool calls) may be errors. */
  allow_tool_errors?: boolean;
}

/** A tool result as a step sees it: `value` is the content parsed as JSON, else the content itself. */
export interface ScriptedToolResult {
  tool_call_id: string;
  name: string;
  content: string;
  is_error: boolean;
  value: unknown;
}

export interface ScriptedStepInput {
  request: ModelRequest;
  /** 1-based: the turn (a conversation without an assistant message starts one) and the round in it. */
  turn: number;
  round: number;
  /** The turn's user message. */
  user: string | undefined;
  /** The results of the previous round's tool calls (empty in a turn's first round). */
  results: ScriptedToolResult[];
  /** Every tool result of this turn, in order. */
  turnResults: ScriptedToolResult[];
  /**
   * The value of the latest result of tool `name` in this turn (typed as the caller says, unchecked);
   * throws a ScriptedModelError when there is none.
   */
  resultOf<T = unknown>(name: string): T;
}

export type ScriptedRespond = (input: ScriptedStepInput) => ScriptedRound | Promise<ScriptedRound>;

export type ScriptedStep = ScriptedRound | ScriptedRespond | { respond: ScriptedRespond; allow_tool_errors?: boolean };

/** Steps played one per call, or grouped by turn (then a turn must end exactly where its steps end). */
export type Script = ScriptedStep[] | { turns: ScriptedStep[][] };

export interface ScriptedModelOptions {
  /** Refuse to call a tool the request does not offer (default true). */
  checkTools?: boolean;
}

/** A tool call for a scripted round: `call('pick_work_item', {work_item_id: 'w1'})`. */
export function call(name: string, args: JsonRecord = {}, id?: string): ScriptedToolCall {
  return { name, arguments: args, ...(id !== undefined ? { id } : {}) };
}

export class ScriptedModel implements ModelAdapter {
  /** Every request received, in order (for assertions). */
  readonly requests: ModelRequest[] = [];
  private readonly turns: ScriptedStep[][] | null;
  private readonly flat: ScriptedStep[];
  private turn = 0;
  private round = 0;
  private played = 0;

  constructor(
    script: Script,
    private readonly options: ScriptedModelOptions = {},
  ) {
    this.turns = Array.isArray(script) ? null : script.turns;
    this.flat = Array.isArray(script) ? script : script.turns.flat();
  }

  /** Steps not played yet. */
  get remaining(): number {
    return this.flat.length - this.played;
  }

  /** Throws unless every step was played. */
  assertDone(): void {
    if (this.remaining > 0) {
      throw new ScriptedModelError(`script not finished: ${this.remaining} of ${this.flat.length} steps not played`);
    }
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    if (request.signal?.aborted) throw new ModelAbortedError(request.signal.reason);
    this.requests.push({ ...request, messages: [...request.messages] });
    const step = this.next(request.messages);
    const where = `script turn ${this.turn} round ${this.round}`;
    const turnResults = collectResults(request.messages);
    const results = turnResults.filter((r) => r.round === lastRound(request.messages)).map(({ round: _, ...r }) => r);
    checkResults(where, request.messages, results, allowsToolErrors(step));
    const input: ScriptedStepInput = {
      request,
      turn: this.turn,
      round: this.round,
      user: request.messages.find((m) => m.role === 'user')?.content,
      results,
      turnResults: turnResults.map(({ round: _, ...r }) => r),
      resultOf: <T>(name: string): T => {
        const found = turnResults.filter((r) => r.name === name).pop();
        if (!found) throw new ScriptedModelError(`${where}: no result of tool "${name}" in this turn`);
        return found.value as T;
      },
    };
    const round = typeof step === 'function' ? await step(input) : 'respond' in step ? await step.respond(input) : step;
    if (request.signal?.aborted) throw new ModelAbortedError(request.signal.reason);
    return this.toResponse(where, round, request);
  }

  private next(messages: readonly ModelMessage[]): ScriptedStep {
    const startsTurn = !messages.some((m) => m.role === 'assistant');
    if (this.turns) return this.nextInTurns(this.turns, startsTurn);
    if (startsTurn || this.turn === 0) [this.turn, this.round] = [this.turn + 1, 0];
    this.round += 1;
    const step = this.flat[this.played];
    if (step === undefined) {
      throw new ScriptedModelError(`script ran out: all ${this.flat.length} steps played (turn ${this.turn})`);
    }
    this.played += 1;
    return step;
  }

  private nextInTurns(turns: ScriptedStep[][], startsTurn: boolean): ScriptedStep {
    const current = turns[this.turn - 1] ?? [];
    if (startsTurn || this.turn === 0) {
      if (this.round < current.length) {
        throw new ScriptedModelError(
          `script turn ${this.turn} has ${current.length} rounds but a new turn started after ${this.round}`,
        );
      }
      if (this.turn >= turns.length) {
        throw new ScriptedModelError(`script ran out: all ${turns.length} turns played, a new turn started`);
      }
      [this.turn, this.round] = [this.turn + 1, 0];
    }
    const step = turns[this.turn - 1]?.[this.round];
    if (step === undefined) {
      throw new ScriptedModelError(
        `script turn ${this.turn} ended after ${this.round} rounds, but the turn asked for round ${this.round + 1}`,
      );
    }
    this.round += 1;
    this.played += 1;
    return step;
  }

  private toResponse(where: string, round: ScriptedRound, request: ModelRequest): ModelResponse {
    const scripted = round.tool_calls ?? [];
    if (round.text === undefined && scripted.length === 0 && round.finish_reason === undefined) {
      throw new ScriptedModelError(`${where}: the step has neither text nor tool calls`);
    }
    const offered = request.tools.map((t) => t.name);
    const toolCalls: ModelToolCall[] = scripted.map((c, index) => {
      if (this.options.checkTools !== false && !offered.includes(c.name)) {
        throw new ScriptedModelError(
          `${where}: calls tool "${c.name}", which the request does not offer (offered: ${offered.join(', ') || 'none'})`,
        );
      }
      return { id: c.id ?? `call_${this.turn}_${this.round}_${index}`, name: c.name, arguments: c.arguments ?? {} };
    });
    return {
      ...(round.text !== undefined ? { text: round.text } : {}),
      tool_calls: toolCalls,
      finish_reason: round.finish_reason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      ...(round.usage ? { usage: round.usage } : {}),
    };
  }
}

function allowsToolErrors(step: ScriptedStep): boolean {
  return typeof step !== 'function' && step.allow_tool_errors === true;
}

/** The index of the last assistant message: its tool calls' results are the previous round's. */
function lastRound(messages: readonly ModelMessage[]): number {
  return messages.reduce((last, m, i) => (m.role === 'assistant' ? i : last), -1);
}

/** The turn's tool results, each with its tool's name and the assistant message (round) that called it. */
function collectResults(messages: readonly ModelMessage[]): Array<ScriptedToolResult & { round: number }> {
  const calls = new Map<string, { name: string; round: number }>();
  const out: Array<ScriptedToolResult & { round: number }> = [];
  messages.forEach((m, i) => {
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) calls.set(c.id, { name: c.name, round: i });
    if (m.role !== 'tool') return;
    const origin = calls.get(m.tool_call_id);
    out.push({
      tool_call_id: m.tool_call_id,
      name: origin?.name ?? '?',
      content: m.content,
      is_error: m.is_error === true,
      value: parse(m.content),
      round: origin?.round ?? -1,
    });
  });
  return out;
}

/** Every tool call of the previous round has a result, and none is an unexpected error. */
function checkResults(
  where: string,
  messages: readonly ModelMessage[],
  results: ScriptedToolResult[],
  allowErrors: boolean,
): void {
  const last = messages[lastRound(messages)];
  for (const c of last?.role === 'assistant' ? (last.tool_calls ?? []) : []) {
    if (!results.some((r) => r.tool_call_id === c.id)) {
      throw new ScriptedModelError(`${where}: tool call ${c.id} ("${c.name}") has no result in the conversation`);
    }
  }
  const failed = results.find((r) => r.is_error);
  if (failed && !allowErrors) {
    throw new ScriptedModelError(
      `${where}: tool "${failed.name}" (${failed.tool_call_id}) returned an error the script did not expect: ${failed.content}`,
    );
  }
}

function parse(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}
