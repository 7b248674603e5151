/**
 * A ModelAdapter for OpenAI-compatible Chat Completions APIs with tool calling (OpenAI, and the
 * servers that speak its format). Configured by options, else the environment: MODEL_BASE_URL
 * (e.g. https://api.openai.com/v1), MODEL_API_KEY (sent as a Bearer token) and MODEL_NAME.
 * Uses the global fetch; retries 429 and 5xx answers, network errors and timeouts with backoff,
 * honouring Retry-After; never retries another 4xx.
 */
import {
  ModelAbortedError,
  ModelConfigError,
  ModelError,
  ModelHttpError,
  ModelNetworkError,
  ModelTimeoutError,
} from './errors';
import type { JsonRecord, ModelAdapter, ModelRequest, ModelResponse } from './model-adapter';
import { parseChatResponse, parseErrorBody, toChatRequest } from './openai-chat-wire';
import { backoffMs, retryAfterMs, sleep } from './retry';

export interface OpenAiChatModelOptions {
  /** Default: MODEL_BASE_URL. The adapter POSTs to `<baseUrl>/chat/completions`. */
  baseUrl?: string;
  /** Default: MODEL_API_KEY. Without one, no Authorization header is sent (local servers). */
  apiKey?: string;
  /** Default: MODEL_NAME. */
  model?: string;
  /** Per attempt, from sending the request to reading the whole answer (default 60000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** Backoff of the first retry when the provider gives no Retry-After (default 500), doubling each time. */
  retryBaseDelayMs?: number;
  /** The longest wait between attempts (default 30000); a longer Retry-After fails at once. */
  maxRetryDelayMs?: number;
  /** Extra request fields, e.g. `{temperature: 0, max_tokens: 1024, parallel_tool_calls: true}`. */
  body?: JsonRecord;
  /** Extra headers, e.g. an organization header. */
  headers?: Record<string, string>;
  /** Where MODEL_* are read (default process.env). */
  env?: Record<string, string | undefined>;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** How to wait between attempts (default: a timer that the request's signal interrupts). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

type Attempt = { ok: true; body: string } | { ok: false; retryable: boolean; error: ModelError; retryAfterMs?: number };

export class OpenAiChatModel implements ModelAdapter {
  readonly baseUrl: string;
  readonly model: string;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseDelayMs: number;
  private readonly maxRetryDelayMs: number;

  constructor(private readonly options: OpenAiChatModelOptions = {}) {
    const env = options.env ?? process.env;
    const baseUrl = options.baseUrl ?? env.MODEL_BASE_URL;
    const model = options.model ?? env.MODEL_NAME;
    const missing = [!baseUrl && 'a base URL (MODEL_BASE_URL)', !model && 'a model name (MODEL_NAME)'].filter(Boolean);
    if (missing.length > 0) throw new ModelConfigError(`OpenAiChatModel needs ${missing.join(' and ')}`);
    if (!/^https?:\/\/[^/]/.test(baseUrl as string)) {
      throw new ModelConfigError(`OpenAiChatModel: the base URL must be an http(s) URL, got "${baseUrl}"`);
    }
    this.baseUrl = (baseUrl as string).replace(/\/+$/, '');
    this.model = model as string;
    this.apiKey = options.apiKey ?? (env.MODEL_API_KEY || undefined);
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const body = JSON.stringify(toChatRequest(this.model, request, this.options.body));
    const signal = request.signal;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new ModelAbortedError(signal.reason);
      const outcome = await this.attempt(body, attempt, signal);
      if (outcome.ok) return parseChatResponse(outcome.body);
      if (!outcome.retryable || attempt > this.maxRetries) throw outcome.error;
      const delay = outcome.retryAfterMs ?? backoffMs(attempt, this.retryBaseDelayMs, this.maxRetryDelayMs);
      if (delay > this.maxRetryDelayMs) throw outcome.error;
      try {
        await (this.options.sleep ?? sleep)(delay, signal);
      } catch (reason) {
        throw new ModelAbortedError(reason);
      }
    }
  }

  /** One POST: its answer's body, or the error it ended with and whether another attempt may help. */
  private async attempt(body: string, attempt: number, signal?: AbortSignal): Promise<Attempt> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    try {
      const response = await (this.options.fetch ?? fetch)(`${this.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: this.headers(),
        body,
        signal: controller.signal,
      });
      const text = await response.text();
      if (response.ok) return { ok: true, body: text };
      const retryable = response.status === 429 || response.status >= 500;
      const after = retryAfterMs(response.headers);
      const { message, type, code } = parseErrorBody(text, response.statusText);
      const error = new ModelHttpError({
        status: response.status,
        providerMessage: message,
        ...(type !== undefined ? { type } : {}),
        ...(code !== undefined ? { code } : {}),
        ...(after !== undefined ? { retryAfterMs: after } : {}),
        attempts: attempt,
      });
      return { ok: false, retryable, error, ...(after !== undefined ? { retryAfterMs: after } : {}) };
    } catch (err) {
      if (signal?.aborted) throw new ModelAbortedError(signal.reason);
      if (timedOut) return { ok: false, retryable: true, error: new ModelTimeoutError(this.timeoutMs) };
      const detail =
        err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
      const error = new ModelNetworkError(`model provider unreachable at ${this.baseUrl}: ${detail}`, err);
      return { ok: false, retryable: true, error };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
      ...this.options.headers,
    };
  }
}
