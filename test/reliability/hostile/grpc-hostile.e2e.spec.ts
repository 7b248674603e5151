import { Client, credentials, Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { agentsProjected, refusalOf, runtimeGrpcClient, type GrpcReply } from '../../support/grpc';
import { probe, securityWorld } from '../security/support/world';
import { DISPLAY_SPOOFING, MiB, nestedObject, UNICODE_SAMPLES } from './support/hostile';

/**
 * Hostile input over gRPC on the real RPCs. Every case must answer a status with the HTTP
 * envelope's code in its trailers (the size limit too: grpc-js answers it before any handler,
 * and the server's interceptor adds the trailer), append nothing to the agent's stream, and
 * leave /health at 200.
 */
describe('hostile input over gRPC', () => {
  const world = securityWorld();
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  let raw: Client;

  beforeAll(() => {
    grpc = runtimeGrpcClient(world.app);
    // A client that sends bytes as they are: the server sees exactly what a broken peer would send.
    raw = new Client(world.app.grpcAddress!, credentials.createInsecure(), { 'grpc.max_send_message_length': -1 });
  });
  afterAll(() => {
    grpc?.close();
    raw?.close();
  });

  const mine = (method: string, request: Record<string, unknown>, metadata?: Record<string, string>) =>
    grpc.call(method, { agent_id: world.mine, ...request }, world.tokens.mine, metadata);
  const json = (value: unknown) => ({
    content: 'json',
    json: typeof value === 'string' ? value : JSON.stringify(value),
  });

  interface Case {
    send: () => Promise<GrpcReply>;
    status: GrpcStatus;
    /** The error-code trailer; null when grpc-js itself refuses (no handler ran). */
    errorCode: string | null;
    details?: Record<string, unknown>;
  }
  const refused =
    (status: GrpcStatus, errorCode: string | null, details?: Record<string, unknown>) =>
    (send: () => Promise<GrpcReply>): Case => ({ send, status, errorCode, details });
  const invalid = (details?: Record<string, unknown>) =>
    refused(GrpcStatus.INVALID_ARGUMENT, 'validation_failed', details);

  async function check(kase: Case): Promise<void> {
    const before = await world.revisionOf(world.mine);
    const reply = await kase.send();
    const refusal = refusalOf(reply);
    expect({ status: refusal.code, errorCode: refusal.errorCode ?? null }).toEqual({
      status: kase.status,
      errorCode: kase.errorCode,
    });
    if (kase.details) expect(refusal.details).toMatchObject(kase.details);
    expect(await world.revisionOf(world.mine)).toBe(before);
    expect((await probe(world.app, 'GET', '/health')).status).toBe(200);
  }
  const table = (cases: Record<string, Case>) => Object.entries(cases);

  describe('size limits', () => {
    it.each(
      table({
        'a message over 1 MiB': refused(GrpcStatus.RESOURCE_EXHAUSTED, 'payload_too_large', { max_bytes: MiB })(() =>
          mine('CreateWorkItem', { objective: 'x'.repeat(MiB + 1) }),
        ),
        'a message body over 1 MiB': refused(GrpcStatus.RESOURCE_EXHAUSTED, 'payload_too_large', { max_bytes: MiB })(
          () => mine('EnqueueMessage', { kind: 'operator_prompt', body: json({ text: 'x'.repeat(MiB) }) }),
        ),
        'a message just under 1 MiB with an objective over the domain limit': invalid()(() =>
          mine('CreateWorkItem', { objective: 'x'.repeat(MiB - 200) }),
        ),
      }),
    )('refuses %s', (_name, kase) => check(kase));

    it('refuses 100 KB of metadata at the HTTP/2 layer, and keeps serving', async () => {
      const reply = await mine('GetAgent', {}, { 'x-junk': 'x'.repeat(100_000) });
      expect(reply.error).not.toBeNull();
      expect((await mine('GetAgent', {})).error).toBeNull();
    });
  });

  describe('JSON carried in json fields', () => {
    it('accepts a message body nested to 32 levels in all and answers it back', async () => {
      const body = nestedObject(31);
      const reply = await mine('EnqueueMessage', { kind: 'operator_prompt', body: json(body) });
      expect(reply.error).toBeNull();
      expect(JSON.parse(reply.reply.message.body.json)).toEqual(body);
    });

    it.each(
      table({
        'a body nested one level deeper (33 in all)': invalid({ reason: 'too_deep', max_depth: 32 })(() =>
          mine('EnqueueMessage', { kind: 'operator_prompt', body: json(nestedObject(32)) }),
        ),
        '100 000 nested arrays': invalid()(() =>
          mine('EnqueueMessage', {
            kind: 'operator_prompt',
            body: json(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
          }),
        ),
        'a top-level __proto__ key': invalid({ reason: 'forbidden_key', key: '__proto__' })(() =>
          mine('EnqueueMessage', { kind: 'operator_prompt', body: json('{"__proto__":{"admin":true}}') }),
        ),
        'a nested constructor key': invalid({ reason: 'forbidden_key', key: 'constructor' })(() =>
          mine('EnqueueMessage', { kind: 'operator_prompt', body: json('{"a":[{"constructor":{"name":"x"}}]}') }),
        ),
        'a prototype key in a trigger payload': invalid({ reason: 'forbidden_key', key: 'prototype' })(() =>
          mine('TriggerWaitingIntent', {
            intent_id: world.existing.intent_id,
            source: 's',
            payload: json('{"prototype":1}'),
          }),
        ),
        'a __proto__ key in a public callback payload': invalid({ reason: 'forbidden_key', key: '__proto__' })(() =>
          grpc.call('Callback', {
            callback_token: world.callbackToken,
            source: 's',
            payload: json('{"x":{"__proto__":{"p":1}}}'),
          }),
        ),
        'a wake hint body with a forbidden key': invalid({ reason: 'forbidden_key' })(() =>
          mine('SubmitWakeHint', { source: 's', reason: 'r', body: json('{"constructor":1}') }),
        ),
        'json that does not parse': invalid()(() =>
          mine('EnqueueMessage', { kind: 'operator_prompt', body: json('{"a":') }),
        ),
        'json that is an array': invalid()(() =>
          mine('EnqueueMessage', { kind: 'operator_prompt', body: json('[1]') }),
        ),
        'json that is a string': invalid()(() =>
          mine('EnqueueMessage', { kind: 'operator_prompt', body: json('"x"') }),
        ),
        'a lone surrogate in json': invalid({ reason: 'invalid_text', problem: 'lone_surrogate' })(() =>
          mine('EnqueueMessage', { kind: 'operator_prompt', body: json('{"k":"\\ud800"}') }),
        ),
        'a NUL in json': invalid({ reason: 'invalid_text', problem: 'nul' })(() =>
          mine('EnqueueMessage', { kind: 'operator_prompt', body: json('{"k\\u0000":1}') }),
        ),
      }),
    )('refuses %s', (_name, kase) => check(kase));

    it('leaves Object.prototype alone after all of it', () => {
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      expect(({} as Record<string, unknown>).p).toBeUndefined();
    });
  });

  describe('strings and ids', () => {
    const agentId = (id: string) =>
      invalid()(() => grpc.call('CreateWorkItem', { agent_id: id, objective: 'o' }, world.tokens.mine));
    const itemId = (id: string) => invalid()(() => mine('PickWorkItem', { work_item_id: id }));
    const ids: Record<string, string> = {
      '..': '..',
      'with a slash': 'a/b',
      'with an encoded slash': 'a%2Fb',
      'of 129 characters': 'x'.repeat(129),
      'of 200 characters': 'x'.repeat(200),
      'with a NUL': 'a\u0000b',
      'with a control character': 'a\u0001b',
      'in another script': 'élève',
      empty: '',
    };
    it.each(Object.entries(ids))('refuses an agent id %s, whatever the token', (_name, id) => check(agentId(id)));
    it.each(Object.entries(ids))('refuses a work item id %s', (_name, id) => check(itemId(id)));

    it.each(
      table({
        'a NUL in an objective': invalid({ reason: 'invalid_text', problem: 'nul', path: 'objective' })(() =>
          mine('CreateWorkItem', { objective: 'a\u0000b' }),
        ),
        'a NUL in a plan body': invalid({ reason: 'invalid_text', problem: 'nul' })(() =>
          mine('ReplacePlan', { work_item_id: 'w-sec', body: '# plan\u0000' }),
        ),
        'a command_id with a space': invalid()(() => mine('CreateWorkItem', { objective: 'o', command_id: 'a key' })),
        'a command_id of 201 characters': invalid()(() =>
          mine('CreateWorkItem', { objective: 'o', command_id: 'k'.repeat(201) }),
        ),
        'an unknown list filter': invalid()(() => mine('ListWorkItems', { filter: 'everything' })),
        'an unknown enum literal': invalid()(() => mine('CreateWorkItem', { objective: 'o', plan_status: 'finished' })),
        'a duration beyond int64 sense': invalid()(() => mine('CreateTimer', { duration_ms: '9223372036854775807' })),
        'a negative duration': invalid()(() => mine('CreateTimer', { duration_ms: '-1' })),
      }),
    )('refuses %s', (_name, kase) => check(kase));

    it('accepts an id of exactly 128 characters', async () => {
      const id = `g${'x'.repeat(127)}`;
      expect((await mine('CreateWorkItem', { work_item_id: id, objective: 'long id' })).error).toBeNull();
      await agentsProjected(world.app, world.mine);
      expect((await mine('GetWorkItem', { work_item_id: id })).reply?.id).toBe(id);
    });

    it.each(Object.entries(DISPLAY_SPOOFING))('refuses %s in an objective and in a todo', async (_name, spoof) => {
      await check(
        invalid({ field: 'objective', rule: spoof.rule })(() => mine('CreateWorkItem', { objective: spoof.text })),
      );
      await check(
        invalid({ field: 'todo_list[0].text', rule: spoof.rule })(() =>
          mine('CreateWorkItem', { objective: 'o', todo_list: [{ text: spoof.text, state: 'pending' }] }),
        ),
      );
    });

    it.each(UNICODE_SAMPLES.map((text) => [text.slice(0, 24), text]))(
      'stores and answers back %j unchanged',
      async (_label, text) => {
        const created = await mine('CreateWorkItem', { objective: text });
        expect(created.error).toBeNull();
        expect(created.reply.work_item.objective).toBe(text);
        await agentsProjected(world.app, world.mine);
        expect((await mine('GetWorkItem', { work_item_id: created.reply.work_item.id })).reply.objective).toBe(text);
      },
    );
  });

  describe('revisions', () => {
    const expected = (value: string) =>
      invalid()(() => mine('UpdateWorkItem', { work_item_id: 'w-sec', objective: 'o', expected_revision: value }));
    it.each(
      table({
        '-1': expected('-1'),
        '1.5': expected('1.5'),
        '1e3': expected('1e3'),
        '9223372036854775808 (beyond int8)': expected('9223372036854775808'),
        'a 1000-digit string': expected('9'.repeat(1000)),
        '" 1"': expected(' 1'),
        '01': expected('01'),
        '-0': expected('-0'),
        'an empty string': expected(''),
        'a word': expected('latest'),
      }),
    )('refuses expected_revision %s', (_name, kase) => check(kase));

    it('answers the largest int8 revision with ABORTED and the current revision', async () => {
      const current = String(await world.revisionOf(world.mine));
      await check(
        refused(GrpcStatus.ABORTED, 'conflict', { current_revision: current })(() =>
          mine('UpdateWorkItem', { work_item_id: 'w-sec', objective: 'o', expected_revision: '9223372036854775807' }),
        ),
      );
    });
  });

  describe('bytes that are not the request message', () => {
    const send = (bytes: Buffer): Promise<GrpcReply> =>
      new Promise((resolve) => {
        const metadata = new Metadata();
        metadata.set('authorization', `Bearer ${world.tokens.mine}`);
        raw.makeUnaryRequest(
          '/agent_runtime.v1.AgentRuntime/CreateWorkItem',
          (b: Buffer) => b,
          (b: Buffer) => b,
          bytes,
          metadata,
          (error: ServiceError | null, reply?: Buffer) => resolve({ error, reply }),
        );
      });
    it.each([
      ['random bytes', Buffer.from('ffffffffffff', 'hex')],
      ['a truncated varint', Buffer.from([0x08, 0xff, 0xff])],
      ['a length beyond the message', Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x07, 0x61])],
      ['500 000 nested groups of an unknown field', Buffer.alloc(500_000, 0x7b)],
      ['the agent id as a varint (wrong wire type)', Buffer.from([0x08, 0x01])],
      ['invalid UTF-8 in the agent id', Buffer.from([0x0a, 0x02, 0xc3, 0x28])],
    ])('answers %s with INVALID_ARGUMENT or a refusal of its fields, never INTERNAL', async (_name, bytes) => {
      const before = await world.revisionOf(world.mine);
      const reply = await send(bytes);
      expect(reply.error).not.toBeNull();
      expect([GrpcStatus.INVALID_ARGUMENT, GrpcStatus.PERMISSION_DENIED]).toContain(reply.error!.code);
      expect(await world.revisionOf(world.mine)).toBe(before);
      expect((await probe(world.app, 'GET', '/health')).status).toBe(200);
    });
  });
});
