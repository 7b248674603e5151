/**
 * The OpenAI Chat Completions wire format: a ModelRequest as a `POST /chat/completions` body, and
 * a response body as a ModelResponse. Pure functions; the transport is in openai-chat-model.ts.
 */
import { ModelResponseError } from './errors';
import {
  type JsonRecord,
  type ModelFinishReason,
  type ModelMessage,
  type ModelRequest,
  type ModelResponse,
  type ModelToolCall,
  type ModelUsage,
  renderContext,
} from './model-adapter';

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** The request body: the context as a system message, the turn's messages, the tools (when any). */
export function toChatRequest(model: string, request: ModelRequest, extra: JsonRecord = {}): JsonRecord {
  const system = renderContext(request.context);
  const messages: ChatMessage[] = [
    ...(system ? [{ role: 'system' as const, content: system }] : []),
    ...request.messages.map(toChatMessage),
  ];
  const tools = request.tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  return { ...extra, model, messages, ...(tools.length > 0 ? { tools, tool_choice: 'auto' } : {}) };
}

function toChatMessage(message: ModelMessage): ChatMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    case 'assistant': {
      const calls = message.tool_calls ?? [];
      return {
        role: 'assistant',
        content: message.content ?? null,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }
          : {}),
      };
    }
  }
}

const FINISH_REASONS: Record<string, ModelFinishReason> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
};

/** A 2xx body as a ModelResponse; a ModelResponseError when it is not a usable completion. */
export function parseChatResponse(body: string): ModelResponse {
  const json = parseJson(body);
  const choice = isObject(json) && Array.isArray(json.choices) ? json.choices[0] : undefined;
  if (!isObject(choice) || !isObject(choice.message)) {
    throw new ModelResponseError(`model provider answered without choices[0].message: ${snippet(body)}`);
  }
  const message = choice.message;
  const text = contentText(message.content);
  const rawCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const reason = typeof choice.finish_reason === 'string' ? choice.finish_reason : '';
  const usage = parseUsage(isObject(json) ? json.usage : undefined);
  return {
    ...(text !== undefined ? { text } : {}),
    tool_calls: rawCalls.map(parseToolCall),
    finish_reason: FINISH_REASONS[reason] ?? 'other',
    ...(usage ? { usage } : {}),
  };
}

/** `{error: {message, type, code}}` (or a bare `{error: "..."}`, or any text) of an error answer. */
export function parseErrorBody(body: string, statusText: string): { message: string; type?: string; code?: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { message: body.trim() ? snippet(body) : statusText || 'no error message' };
  }
  const error = isObject(json) ? json.error : undefined;
  if (typeof error === 'string') return { message: error };
  const source = isObject(error) ? error : isObject(json) ? json : {};
  const message = typeof source.message === 'string' ? source.message : snippet(body);
  const type = typeof source.type === 'string' ? source.type : undefined;
  const code = typeof source.code === 'string' || typeof source.code === 'number' ? String(source.code) : undefined;
  return { message, ...(type ? { type } : {}), ...(code ? { code } : {}) };
}

function parseToolCall(raw: unknown, index: number): ModelToolCall {
  const fn = isObject(raw) && isObject(raw.function) ? raw.function : undefined;
  const id = isObject(raw) && typeof raw.id === 'string' ? raw.id : undefined;
  if (!id || !fn || typeof fn.name !== 'string') {
    throw new ModelResponseError(`model provider answered a malformed tool call at index ${index}: ${snippet(raw)}`);
  }
  const rawArguments = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {});
  const toolCall = { id, name: fn.name, rawArguments };
  let args: unknown;
  try {
    args = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
  } catch (err) {
    throw new ModelResponseError(
      `model provider answered tool call ${id} ("${fn.name}") with arguments that are not valid JSON ` +
        `(${(err as Error).message}): ${snippet(rawArguments)}`,
      toolCall,
    );
  }
  if (!isObject(args)) {
    throw new ModelResponseError(
      `model provider answered tool call ${id} ("${fn.name}") with arguments that are not a JSON object: ${snippet(rawArguments)}`,
      toolCall,
    );
  }
  return { id, name: fn.name, arguments: args };
}

/** `content` is a string, null, or (some providers) an array of `{type: 'text', text}` parts. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.filter(isObject).flatMap((p) => (typeof p.text === 'string' ? [p.text] : []));
  return parts.length > 0 ? parts.join('') : undefined;
}

function parseUsage(usage: unknown): ModelUsage | undefined {
  if (!isObject(usage)) return undefined;
  const input = typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0;
  const output = typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0;
  const total = typeof usage.total_tokens === 'number' ? usage.total_tokens : input + output;
  return { input_tokens: input, output_tokens: output, total_tokens: total };
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new ModelResponseError(`model provider answered a body that is not JSON: ${snippet(body)}`);
  }
}

function isObject(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function snippet(value: unknown, max = 300): string {
  const text = typeof value === 'string' ? value : String(JSON.stringify(value));
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
