/**
 * The model side of a host turn, provider-neutral: the host loop calls `complete` once per model
 * round with the turn's context, the conversation of the turn so far and the tools it offers, runs
 * the tool calls it gets back, appends their results and calls again until the model stops.
 * Field names follow the runtime's wire (snake_case), so a response maps straight onto a recorded
 * round (`tool_calls: [{tool_call_id, name}]`).
 */

/** A JSON object: what a tool call's arguments are once parsed. */
export type JsonRecord = { [key: string]: unknown };

/** A tool the host offers the model: its name, what it does, and a JSON Schema of its arguments. */
export interface ModelToolDefinition {
  name: string;
  description: string;
  /** A JSON Schema (`{type: 'object', properties, required}`) of the arguments object. */
  parameters: JsonRecord;
}

/** A tool call the model asked for. `id` is the provider's (or the script's) tool call id. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: JsonRecord;
}

/** One section of the runtime's context projection (`GET .../context`, or an activation's `context`). */
export interface ModelContextSection {
  name: string;
  text: string;
}

/**
 * What the model should know about the agent this turn: the runtime's context projection (its `text`,
 * else its `sections` in order), after the host's standing `instructions` (the system prompt).
 * A context projection object is assignable as it is.
 */
export interface ModelContext {
  instructions?: string;
  text?: string;
  sections?: readonly ModelContextSection[];
}

export interface ModelUserMessage {
  role: 'user';
  content: string;
}

export interface ModelAssistantMessage {
  role: 'assistant';
  content?: string;
  tool_calls?: readonly ModelToolCall[];
}

/** The result of one tool call, as the model sees it (the host renders it, typically JSON). */
export interface ModelToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
  /** The tool failed (the content says why); providers without such a flag get only the content. */
  is_error?: boolean;
}

export type ModelMessage = ModelUserMessage | ModelAssistantMessage | ModelToolMessage;

export interface ModelRequest {
  context: ModelContext;
  /** This turn so far: the user message, then assistant messages and the results of their tool calls. */
  messages: readonly ModelMessage[];
  tools: readonly ModelToolDefinition[];
  /** Aborted by the host on `cancel_requested` (or its own shutdown): the call rejects with ModelAbortedError. */
  signal?: AbortSignal;
}

/** Why the model stopped: `other` covers a provider's reason this interface does not name. */
export type ModelFinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export interface ModelResponse {
  /** The assistant's text, when it wrote any. */
  text?: string;
  /** Empty when the model asked for no tool. */
  tool_calls: ModelToolCall[];
  finish_reason: ModelFinishReason;
  /** When the provider reports it. */
  usage?: ModelUsage;
}

/** One model round: context + conversation + tools in, text and tool calls out. */
export interface ModelAdapter {
  complete(request: ModelRequest): Promise<ModelResponse>;
}

/** The system text of a request: the instructions, then the context's text (or its sections joined). */
export function renderContext(context: ModelContext): string {
  const body = context.text ?? (context.sections ?? []).map((s) => s.text).join('\n\n');
  return [context.instructions, body].filter((part): part is string => !!part && part.trim() !== '').join('\n\n');
}

/** The assistant message to append to the conversation for a response (before its tool results). */
export function assistantMessage(response: ModelResponse): ModelAssistantMessage {
  return {
    role: 'assistant',
    ...(response.text !== undefined ? { content: response.text } : {}),
    ...(response.tool_calls.length > 0 ? { tool_calls: response.tool_calls } : {}),
  };
}

/** A tool result message: a string is sent as it is, anything else as JSON. */
export function toolResultMessage(toolCallId: string, result: unknown, isError = false): ModelToolMessage {
  const content = typeof result === 'string' ? result : JSON.stringify(result ?? null);
  return { role: 'tool', tool_call_id: toolCallId, content, ...(isError ? { is_error: true } : {}) };
}
