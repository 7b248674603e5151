import { ModelConfigError, ModelResponseError } from './errors';
import type { ModelRequest, ModelToolDefinition } from './model-adapter';
import { OpenAiChatModel } from './openai-chat-model';
import { parseChatResponse } from './openai-chat-wire';
import { ChatServer } from './testing/chat-server';
import { PLAIN_ANSWER, TWO_TOOL_CALLS } from './testing/openai-fixtures';

const TOOLS: ModelToolDefinition[] = [
  {
    name: 'pick_work_item',
    description: 'Make a work item the current one.',
    parameters: { type: 'object', properties: { work_item_id: { type: 'string' } }, required: ['work_item_id'] },
  },
  {
    name: 'update_work_item',
    description: 'Update a work item (title, todos, ...).',
    parameters: { type: 'object', properties: { work_item_id: { type: 'string' }, todos: { type: 'array' } } },
  },
];

const CONTEXT = {
  instructions: 'You are a careful agent.',
  sections: [
    { name: 'current_work_item', text: 'Current: w1 "Draft the report"' },
    { name: 'queued_runnable', text: 'Queued: w2 "Review"' },
  ],
};

describe('OpenAiChatModel against a local Chat Completions server', () => {
  let server: ChatServer | undefined;
  afterEach(() => server?.close());

  const adapter = (s: ChatServer) =>
    new OpenAiChatModel({ baseUrl: s.baseUrl, apiKey: 'sk-test', model: 'gpt-4o-mini' });

  it('sends the context, the user message and the tools, and reads a plain answer', async () => {
    server = await ChatServer.start([{ status: 200, body: PLAIN_ANSWER }]);
    const request: ModelRequest = { context: CONTEXT, messages: [{ role: 'user', content: 'Hello!' }], tools: TOOLS };

    const response = await adapter(server).complete(request);

    expect(response).toEqual({
      text: 'Hello! How can I assist you today?',
      tool_calls: [],
      finish_reason: 'stop',
      usage: { input_tokens: 19, output_tokens: 10, total_tokens: 29 },
    });
    const [sent] = server.requests;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        {
          role: 'system',
          content: 'You are a careful agent.\n\nCurrent: w1 "Draft the report"\n\nQueued: w2 "Review"',
        },
        { role: 'user', content: 'Hello!' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'pick_work_item',
            description: 'Make a work item the current one.',
            parameters: {
              type: 'object',
              properties: { work_item_id: { type: 'string' } },
              required: ['work_item_id'],
            },
          },
        },
        {
          type: 'function',
          function: {
            name: 'update_work_item',
            description: 'Update a work item (title, todos, ...).',
            parameters: { type: 'object', properties: { work_item_id: { type: 'string' }, todos: { type: 'array' } } },
          },
        },
      ],
      tool_choice: 'auto',
    });
  });

  it('maps the turn so far (assistant tool calls, tool results) and reads two parallel tool calls', async () => {
    server = await ChatServer.start([{ status: 200, body: TWO_TOOL_CALLS }]);
    const request: ModelRequest = {
      context: { text: 'Current: none' },
      messages: [
        { role: 'user', content: 'Plan the report.' },
        {
          role: 'assistant',
          content: 'Creating the item.',
          tool_calls: [{ id: 'call_1', name: 'create_work_item', arguments: { title: 'Draft the report' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"work_item":{"work_item_id":"w1"}}' },
        { role: 'assistant', tool_calls: [{ id: 'call_2', name: 'list_work_items', arguments: {} }] },
        { role: 'tool', tool_call_id: 'call_2', content: '{"error":"forbidden"}', is_error: true },
      ],
      tools: TOOLS,
    };

    const response = await adapter(server).complete(request);

    expect(response).toEqual({
      tool_calls: [
        { id: 'call_abc123', name: 'pick_work_item', arguments: { work_item_id: 'w1' } },
        {
          id: 'call_def456',
          name: 'update_work_item',
          arguments: { work_item_id: 'w1', todos: [{ text: 'outline' }] },
        },
      ],
      finish_reason: 'tool_calls',
      usage: { input_tokens: 82, output_tokens: 17, total_tokens: 99 },
    });
    expect((server.requests[0].body as { messages: unknown }).messages).toEqual([
      { role: 'system', content: 'Current: none' },
      { role: 'user', content: 'Plan the report.' },
      {
        role: 'assistant',
        content: 'Creating the item.',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'create_work_item', arguments: '{"title":"Draft the report"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"work_item":{"work_item_id":"w1"}}' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'list_work_items', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_2', content: '{"error":"forbidden"}' },
    ]);
  });

  it('reads its configuration from MODEL_* unless options override it; without a key, no Authorization', async () => {
    server = await ChatServer.start([
      { status: 200, body: PLAIN_ANSWER },
      { status: 200, body: PLAIN_ANSWER },
    ]);
    const env = { MODEL_BASE_URL: `${server.baseUrl}/`, MODEL_API_KEY: 'sk-env', MODEL_NAME: 'env-model' };
    const request: ModelRequest = { context: {}, messages: [{ role: 'user', content: 'hi' }], tools: [] };

    const fromEnv = new OpenAiChatModel({ env });
    expect([fromEnv.baseUrl, fromEnv.model]).toEqual([server.baseUrl, 'env-model']);
    await fromEnv.complete(request);
    await new OpenAiChatModel({
      env: { MODEL_BASE_URL: server.baseUrl },
      model: 'local',
      body: { temperature: 0 },
    }).complete(request);

    expect(server.requests[0].headers.authorization).toBe('Bearer sk-env');
    expect(server.requests[0].body).toEqual({ model: 'env-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(server.requests[1].headers.authorization).toBeUndefined();
    expect(server.requests[1].body).toEqual({
      temperature: 0,
      model: 'local',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('refuses to start without a base URL or a model name', () => {
    expect(() => new OpenAiChatModel({ env: {} })).toThrow(
      new ModelConfigError('OpenAiChatModel needs a base URL (MODEL_BASE_URL) and a model name (MODEL_NAME)'),
    );
    expect(() => new OpenAiChatModel({ env: {}, baseUrl: 'api.example.com', model: 'm' })).toThrow(
      'OpenAiChatModel: the base URL must be an http(s) URL, got "api.example.com"',
    );
  });
});

describe('parseChatResponse', () => {
  it('turns unusable answers into ModelResponseError, never a crash', () => {
    const bad = (body: unknown) => () => parseChatResponse(typeof body === 'string' ? body : JSON.stringify(body));
    expect(bad('<html>gateway</html>')).toThrow(
      new ModelResponseError('model provider answered a body that is not JSON: <html>gateway</html>'),
    );
    expect(bad({ choices: [] })).toThrow('model provider answered without choices[0].message: {"choices":[]}');
    expect(bad({ choices: [{ message: { tool_calls: [{ type: 'function' }] } }] })).toThrow(
      'model provider answered a malformed tool call at index 0: {"type":"function"}',
    );
    const notObject = {
      choices: [{ message: { tool_calls: [{ id: 'c', function: { name: 'f', arguments: '[1]' } }] } }],
    };
    expect(bad(notObject)).toThrow(
      'model provider answered tool call c ("f") with arguments that are not a JSON object: [1]',
    );
  });

  it('reads content parts, empty arguments, and names unknown finish reasons "other"', () => {
    const body = {
      choices: [
        {
          message: {
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
            tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' } }],
          },
          finish_reason: 'eos',
        },
      ],
    };
    expect(parseChatResponse(JSON.stringify(body))).toEqual({
      text: 'ab',
      tool_calls: [{ id: 'c', name: 'f', arguments: {} }],
      finish_reason: 'other',
    });
  });
});
