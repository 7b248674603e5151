/**
 * Chat Completions answers in the shapes OpenAI's API reference documents (the chat completion
 * object, function calling with parallel tool calls, and the `{error: {message, type, param, code}}`
 * error object), for the adapter's specs against a local server.
 */

/** A plain answer (the reference's "Default" example). */
export const PLAIN_ANSWER = {
  id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
  object: 'chat.completion',
  created: 1741569952,
  model: 'gpt-4.1-2025-04-14',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Hello! How can I assist you today?',
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: 'stop',
    },
  ],
  usage: {
    prompt_tokens: 19,
    completion_tokens: 10,
    total_tokens: 29,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  },
  service_tier: 'default',
};

/** Two parallel tool calls (the reference's "Functions" example, with a second call). */
export const TWO_TOOL_CALLS = {
  id: 'chatcmpl-abc123',
  object: 'chat.completion',
  created: 1699896916,
  model: 'gpt-4o-mini',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_abc123',
            type: 'function',
            function: { name: 'pick_work_item', arguments: '{\n"work_item_id": "w1"\n}' },
          },
          {
            id: 'call_def456',
            type: 'function',
            function: { name: 'update_work_item', arguments: '{"work_item_id":"w1","todos":[{"text":"outline"}]}' },
          },
        ],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: {
    prompt_tokens: 82,
    completion_tokens: 17,
    total_tokens: 99,
    completion_tokens_details: { reasoning_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  },
};

/** A tool call whose `arguments` string is cut off (not JSON). */
export const INVALID_TOOL_ARGUMENTS = {
  ...TWO_TOOL_CALLS,
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_bad1',
            type: 'function',
            function: { name: 'pick_work_item', arguments: '{"work_item_id": "w1' },
          },
        ],
      },
      logprobs: null,
      finish_reason: 'length',
    },
  ],
};

export const RATE_LIMITED = {
  error: {
    message:
      'Rate limit reached for gpt-4o in organization org-abc on requests per min (RPM): Limit 500, Used 500, ' +
      'Requested 1. Please try again in 2s. Visit https://platform.openai.com/account/rate-limits to learn more.',
    type: 'requests',
    param: null,
    code: 'rate_limit_exceeded',
  },
};

export const SERVER_ERROR = {
  error: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    param: null,
    code: null,
  },
};

export const CONTEXT_TOO_LONG = {
  error: {
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. " +
      'Please reduce the length of the messages.',
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
};
