import { probe, securityWorld, type Probe } from '../security/support/world';
import { agentsProjected } from '../../support/grpc';
import {
  chunkedPost,
  DISPLAY_SPOOFING,
  exactPath,
  MiB,
  nestedObject,
  rawHttp,
  UNICODE_SAMPLES,
} from './support/hostile';

/**
 * Hostile input over HTTP on the real routes. Every case must answer docs/api.md's envelope with a
 * clear code, append nothing to the agent's stream, and leave /health at 200.
 */
describe('hostile input over HTTP', () => {
  const world = securityWorld();
  const base = () => `/v1/agents/${world.mine}`;
  type Reply = { status: number; json: any };

  /** A request as the agent's own token (or the admin's): `body` is sent as given when a string. */
  const as =
    (who: 'mine' | 'admin') =>
    (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Probe> =>
      probe(
        world.app,
        method,
        path,
        `Bearer ${world.tokens[who]}`,
        body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        headers,
      );
  const mine = as('mine');
  const admin = as('admin');

  interface Case {
    send: () => Promise<Reply>;
    status: number;
    code: string;
    details?: Record<string, unknown>;
  }
  const refused =
    (status: number, code: string, details?: Record<string, unknown>) =>
    (send: () => Promise<Reply>): Case => ({ send, status, code, details });
  const invalid = (details?: Record<string, unknown>) => refused(400, 'validation_failed', details);
  /** A validation refusal naming `name` (or an item of it: `todo_list.0`). */
  const field = (name: string) =>
    invalid({
      errors: expect.arrayContaining([
        expect.objectContaining({ field: expect.stringMatching(new RegExp(`^${name.replace(/\./g, '\\.')}(\\.|$)`)) }),
      ]),
    });

  /** Runs the case and checks the envelope, that nothing was written, and that the process is healthy. */
  async function check(kase: Case): Promise<void> {
    const before = await world.revisionOf(world.mine);
    const reply = await kase.send();
    expect({ status: reply.status, code: reply.json?.error?.code }).toEqual({ status: kase.status, code: kase.code });
    expect(reply.json).toEqual({
      error: { code: kase.code, message: expect.any(String), details: expect.any(Object) },
    });
    if (kase.details) expect(reply.json.error.details).toMatchObject(kase.details);
    expect(await world.revisionOf(world.mine)).toBe(before);
    expect((await probe(world.app, 'GET', '/health')).status).toBe(200);
  }

  const table = (cases: Record<string, Case>) => Object.entries(cases);

  describe('size limits', () => {
    it.each(
      table({
        'a JSON body over 1 MiB': refused(
          413,
          'payload_too_large',
        )(() => mine('POST', `${base()}/work-items`, { objective: 'x'.repeat(MiB) })),
        'a markdown plan over 1 MiB': refused(
          413,
          'payload_too_large',
        )(() =>
          mine('PUT', `${base()}/work-items/w-sec/plan`, 'x'.repeat(MiB + 1), { 'content-type': 'text/markdown' }),
        ),
        'a chunked body without content-length passing 1 MiB': refused(
          413,
          'payload_too_large',
        )(() =>
          chunkedPost(
            world.app,
            `${base()}/messages`,
            world.tokens.mine,
            JSON.stringify({ kind: 'operator_prompt', body: 'x'.repeat(MiB) }),
          ),
        ),
        'a 1 MiB body on a route that takes none': refused(
          413,
          'payload_too_large',
        )(() => mine('POST', `${base()}/work-items/w-sec/pick`, 'x'.repeat(MiB + 1))),
        'a 100 000-character objective (under 1 MiB)': invalid()(() =>
          mine('POST', `${base()}/work-items`, { objective: 'x'.repeat(100_000) }),
        ),
        'a 900 KiB reason': invalid()(() =>
          mine('POST', `${base()}/waits`, { wake: 'operator_input', reason: 'r'.repeat(900 * 1024) }),
        ),
      }),
    )('refuses %s', (_name, kase) => check(kase));
  });

  describe('JSON structure', () => {
    it(`accepts a stored message body nested to 32 levels in all and reads it back`, async () => {
      const body = nestedObject(31);
      const reply = await mine('POST', `${base()}/messages`, { kind: 'operator_prompt', body });
      expect(reply.status).toBe(201);
      expect(reply.json.message.body).toEqual(body);
    });

    it.each(
      table({
        'a message body nested one level deeper (33 in all)': invalid({ reason: 'too_deep', max_depth: 32 })(() =>
          mine('POST', `${base()}/messages`, { kind: 'operator_prompt', body: nestedObject(32) }),
        ),
        '100 000 nested arrays': invalid({ reason: 'too_deep' })(() =>
          mine(
            'POST',
            `${base()}/messages`,
            `{"kind":"operator_prompt","body":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
          ),
        ),
        'a top-level __proto__': invalid({ reason: 'forbidden_key', key: '__proto__' })(() =>
          mine('POST', `${base()}/work-items`, '{"objective":"x","__proto__":{"admin":true}}'),
        ),
        'a top-level constructor': invalid({ reason: 'forbidden_key', key: 'constructor' })(() =>
          mine('PATCH', `${base()}/work-items/w-sec`, '{"constructor":{"name":"x"}}'),
        ),
        'a prototype key in a stored message body': invalid({
          reason: 'forbidden_key',
          key: 'prototype',
          path: 'body.a.prototype',
        })(() =>
          mine('POST', `${base()}/messages`, '{"kind":"operator_prompt","body":{"a":{"prototype":{"admin":true}}}}'),
        ),
        'a __proto__ key deep in a trigger payload': invalid({ reason: 'forbidden_key', key: '__proto__' })(() =>
          mine(
            'POST',
            `${base()}/waiting-intents/${world.existing.intent_id}/trigger`,
            '{"source":"x","payload":{"list":[{"__proto__":{"polluted":1}}]}}',
          ),
        ),
        'a constructor key in a todo item': invalid({ reason: 'forbidden_key', key: 'constructor' })(() =>
          mine(
            'POST',
            `${base()}/work-items`,
            '{"objective":"x","todo_list":[{"text":"t","state":"pending","constructor":1}]}',
          ),
        ),
        'malformed JSON': invalid({ reason: 'malformed_json' })(() =>
          mine('POST', `${base()}/work-items`, '{"objective":'),
        ),
        'bytes that are not UTF-8': invalid({ reason: 'invalid_utf8' })(() =>
          fetch(`${world.app.baseUrl}${base()}/work-items`, {
            method: 'POST',
            headers: { authorization: `Bearer ${world.tokens.mine}`, 'content-type': 'application/json' },
            body: Buffer.from([...Buffer.from('{"objective":"'), 0xc3, 0x28, ...Buffer.from('"}')]),
          }).then(async (r) => ({ status: r.status, json: await r.json() })),
        ),
        'a body that is an array': invalid()(() => mine('POST', `${base()}/work-items`, '[{"objective":"x"}]')),
        'a body that is a string': invalid()(() => mine('POST', `${base()}/work-items`, '"objective"')),
        'an empty body where fields are required': invalid()(() => mine('POST', `${base()}/work-items`, '')),
        'JSON sent as text/plain': invalid()(() =>
          mine('POST', `${base()}/work-items`, '{"objective":"x"}', { 'content-type': 'text/plain' }),
        ),
        'a content type nobody parses': refused(
          415,
          'unsupported_media_type',
        )(() =>
          mine('POST', `${base()}/work-items`, '{"objective":"x"}', {
            'content-type': 'application/x-www-form-urlencoded',
          }),
        ),
      }),
    )('refuses %s', (_name, kase) => check(kase));

    it('leaves Object.prototype alone after all of it', () => {
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('unknown fields', () => {
    it.each(
      table({
        'on RegisterAgent': field('name')(() =>
          admin('POST', '/v1/agents', { agent_id: `${world.ghost}-x`, name: 'x' }),
        ),
        'on CreateWorkItem': field('surprise')(() =>
          mine('POST', `${base()}/work-items`, { objective: 'o', surprise: 1 }),
        ),
        'inside a todo item': field('todo_list.0.extra')(() =>
          mine('POST', `${base()}/work-items`, {
            objective: 'o',
            todo_list: [{ text: 't', state: 'pending', extra: true }],
          }),
        ),
        'on UpdateWorkItem': field('state')(() => mine('PATCH', `${base()}/work-items/w-sec`, { state: 'completed' })),
        'trust on a message': field('trust')(() =>
          mine('POST', `${base()}/messages`, { kind: 'operator_prompt', body: 'b', trust: 'system' }),
        ),
        'authority on a message': field('authority')(() =>
          mine('POST', `${base()}/messages`, { kind: 'operator_prompt', body: 'b', authority: 'runtime' }),
        ),
        'on WaitFor': field('color')(() =>
          mine('POST', `${base()}/waits`, { wake: 'operator_input', reason: 'r', color: 'red' }),
        ),
        'on CreateTask': field('priority')(() =>
          mine('POST', `${base()}/tasks`, { kind: 'k', wait_policy: 'background', priority: 1 }),
        ),
        'on CreateTimer': field('cron')(() =>
          mine('POST', `${base()}/timers`, { duration_ms: 60_000, cron: '* * * * *' }),
        ),
        'on Control': field('force')(() => mine('POST', `${base()}/control`, { action: 'pause', force: true })),
        'on a trigger': field('agent_id')(() =>
          mine('POST', `${base()}/waiting-intents/${world.existing.intent_id}/trigger`, {
            source: 's',
            agent_id: world.theirs,
          }),
        ),
      }),
    )('refuses one %s, naming it', (_name, kase) => check(kase));
  });

  describe('wrong types, for every kind of field', () => {
    const objective = (value: unknown) =>
      field('objective')(() => mine('POST', `${base()}/work-items`, { objective: value }));
    const planStatus = (value: unknown) =>
      field('plan_status')(() => mine('POST', `${base()}/work-items`, { objective: 'o', plan_status: value }));
    const todos = (value: unknown) =>
      field('todo_list')(() => mine('POST', `${base()}/work-items`, { objective: 'o', todo_list: value }));
    const duration = (value: unknown) =>
      field('duration_ms')(() => mine('POST', `${base()}/timers`, { duration_ms: value }));
    const workItemId = (value: unknown) =>
      field('work_item_id')(() => mine('POST', `${base()}/work-items`, { objective: 'o', work_item_id: value }));
    const body = (value: unknown) =>
      field('body')(() => mine('POST', `${base()}/messages`, { kind: 'operator_prompt', body: value }));
    const blockedBy = (value: unknown) =>
      field('blocked_by')(() => mine('PATCH', `${base()}/work-items/w-sec`, { blocked_by: value }));
    it.each(
      table({
        'a string field given a number': objective(5),
        'a string field given true': objective(true),
        'a string field given null': objective(null),
        'a string field given an array': objective(['o']),
        'a string field given an object': objective({ text: 'o' }),
        'an enum given an unknown literal': planStatus('finished'),
        'an enum given a number': planStatus(1),
        'an enum given the right word in capitals': planStatus('DRAFT'),
        'an array given a string': todos('t'),
        'an array given an object': todos({ text: 't', state: 'pending' }),
        'an array of numbers': todos([1, 2]),
        'an array item with a wrong field type': field('todo_list.0.text')(() =>
          mine('POST', `${base()}/work-items`, { objective: 'o', todo_list: [{ text: 1, state: 'pending' }] }),
        ),
        'an integer given a string': duration('60000'),
        'an integer given a fraction': duration(1.5),
        'an integer given true': duration(true),
        'an integer given 1e400 (Infinity)': field('duration_ms')(() =>
          mine('POST', `${base()}/timers`, '{"duration_ms":1e400}'),
        ),
        'a date-time given a number': field('fire_at')(() =>
          mine('POST', `${base()}/timers`, { fire_at: 1_700_000_000 }),
        ),
        'an id given a number': workItemId(42),
        'an id with a slash': workItemId('a/b'),
        'an id with ..': workItemId('../etc'),
        'an id of 129 characters': workItemId('x'.repeat(129)),
        'an id of 200 characters': workItemId('x'.repeat(200)),
        'an id with a NUL': invalid({ reason: 'invalid_text' })(() =>
          mine('POST', `${base()}/work-items`, { objective: 'o', work_item_id: 'a\u0000b' }),
        ),
        'an id with a control character': workItemId('a\u0001b'),
        'an id in another script': workItemId('élément'),
        'an empty id': workItemId(''),
        'a message body given a number': body(5),
        'a message body given an array': body(['x']),
        'a message body given null': body(null),
        'a nullable string given a number': blockedBy(7),
      }),
    )('refuses %s', (_name, kase) => check(kase));
  });

  describe('ids in paths', () => {
    // Sent byte for byte: fetch would resolve `..` and `.%2E` before they reach the server.
    const agentPath = (id: string) => () =>
      exactPath(world.app, 'GET', `/v1/agents/${id}/work-items`, world.tokens.mine);
    const itemPath = (id: string) => () =>
      exactPath(world.app, 'POST', `${base()}/work-items/${id}/pick`, world.tokens.mine, '{}');
    const badId = { pattern: expect.any(String) };
    const cases: Record<string, [string, Case['status'], string, Record<string, unknown>?]> = {
      '..': ['..', 400, 'validation_failed'],
      '.%2E': ['.%2E', 400, 'validation_failed'],
      'an encoded slash (a%2Fb)': ['a%2Fb', 400, 'validation_failed'],
      'an encoded ../': ['..%2F..%2Fetc', 400, 'validation_failed'],
      'an encoded backslash': ['a%5Cb', 400, 'validation_failed'],
      '129 characters': ['x'.repeat(129), 400, 'validation_failed'],
      '200 characters': ['x'.repeat(200), 400, 'validation_failed'],
      '700 characters (over the router limit)': [
        'x'.repeat(700),
        400,
        'validation_failed',
        { reason: 'path_segment_too_long' },
      ],
      'an encoded NUL': ['a%00b', 400, 'validation_failed'],
      'an encoded control character': ['a%01b', 400, 'validation_failed'],
      'an encoded DEL': ['a%7Fb', 400, 'validation_failed'],
      'an encoded space': ['%20a', 400, 'validation_failed'],
      'UTF-8 letters': ['%C3%A9l%C3%A8ve', 400, 'validation_failed'],
      'an encoded lone surrogate (invalid UTF-8)': ['%ED%A0%80', 400, 'validation_failed', { reason: 'bad_url' }],
      'broken percent-encoding': ['a%ZZ', 400, 'validation_failed', { reason: 'bad_url' }],
      'an overlong UTF-8 encoding of /': ['%C0%AF', 400, 'validation_failed', { reason: 'bad_url' }],
    };
    it.each(Object.entries(cases))('refuses an agent id that is %s', (_name, [id, status, code, details]) =>
      check({ ...refused(status, code, details)(agentPath(id)), ...(details ? {} : { details: badId }) }),
    );
    it.each(Object.entries(cases))('refuses a work item id that is %s', (_name, [id, status, code, details]) =>
      check({ ...refused(status, code, details)(itemPath(id)), ...(details ? {} : { details: badId }) }),
    );

    it('routes a literal slash nowhere (404 not_found), not to another resource', async () => {
      await check(refused(404, 'not_found')(() => mine('POST', `${base()}/work-items/a/b/pick`, {})));
      await check(
        refused(
          404,
          'not_found',
        )(() => exactPath(world.app, 'GET', `/v1/agents/${world.mine}/../${world.theirs}`, world.tokens.mine)),
      );
      await check(
        refused(
          404,
          'not_found',
        )(() => exactPath(world.app, 'GET', `/v1/agents/${world.mine}/%2E%2E/${world.theirs}`, world.tokens.mine)),
      );
    });

    it('accepts an id of exactly 128 characters, and reads it back', async () => {
      const id = `w${'x'.repeat(127)}`;
      expect((await mine('POST', `${base()}/work-items`, { work_item_id: id, objective: 'long id' })).status).toBe(201);
      await agentsProjected(world.app, world.mine);
      expect((await mine('GET', `${base()}/work-items/${id}`)).json.id).toBe(id);
    });

    it.each([
      ['a NUL', 'GET /v1/agents/a\u0000b HTTP/1.1'],
      ['a control character', 'GET /v1/agents/a\u0001b HTTP/1.1'],
      ['a raw space', `GET /v1/agents/a b/work-items HTTP/1.1`],
      ['no request line at all', 'GARBAGE'],
    ])('answers a request line with %s (Node refuses to parse it) with the envelope', async (_name, line) => {
      const answer = await rawHttp(
        world.app,
        `${line}\r\nHost: x\r\nAuthorization: Bearer ${world.tokens.mine}\r\n\r\n`,
      );
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        error: { code: 'validation_failed', message: 'malformed HTTP request', details: { reason: 'bad_request' } },
      });
      expect((await probe(world.app, 'GET', '/health')).status).toBe(200);
    });

    it('never serves a file outside the console folder', async () => {
      for (const path of [
        '/console/..%2F..%2Fpackage.json',
        '/console/%2e%2e/%2e%2e/package.json',
        '/console/assets/..%2F..%2F..%2Fpackage.json',
        '/console/..%5C..%5Cpackage.json',
        '/console/%00.html',
      ]) {
        const reply = await probe(world.app, 'GET', path);
        expect(reply.text).not.toContain('"name": "agent-runtime-kernel"');
        expect(reply.status).not.toBe(500);
      }
    });
  });

  describe('text', () => {
    it.each(UNICODE_SAMPLES.map((text) => [text.slice(0, 24), text]))(
      'stores and reads back %j unchanged, in an objective and in a JSON body',
      async (_label, text) => {
        const created = await mine('POST', `${base()}/work-items`, { objective: text.slice(0, 500) });
        expect(created.status).toBe(201);
        expect(created.json.work_item.objective).toBe(text.slice(0, 500));
        await agentsProjected(world.app, world.mine);
        expect((await mine('GET', `${base()}/work-items/${created.json.work_item.id}`)).json.objective).toBe(
          text.slice(0, 500),
        );
        const message = await mine('POST', `${base()}/messages`, {
          kind: 'operator_prompt',
          body: { [text.slice(0, 10)]: text },
        });
        expect(message.status).toBe(201);
        expect(message.json.message.body).toEqual({ [text.slice(0, 10)]: text });
      },
    );

    it.each(
      table({
        'a lone high surrogate': invalid({ reason: 'invalid_text', problem: 'lone_surrogate', path: 'objective' })(() =>
          mine('POST', `${base()}/work-items`, '{"objective":"a\\ud800b"}'),
        ),
        'a lone low surrogate': invalid({ reason: 'invalid_text', problem: 'lone_surrogate' })(() =>
          mine('POST', `${base()}/messages`, '{"kind":"operator_prompt","body":"\\udc00"}'),
        ),
        'a NUL in an objective': invalid({ reason: 'invalid_text', problem: 'nul', path: 'objective' })(() =>
          mine('POST', `${base()}/work-items`, '{"objective":"a\\u0000b"}'),
        ),
        'a NUL in a key of a stored body': invalid({ reason: 'invalid_text', problem: 'nul' })(() =>
          mine('POST', `${base()}/messages`, '{"kind":"operator_prompt","body":{"k\\u0000":1}}'),
        ),
        'a NUL in a markdown plan': invalid({ reason: 'invalid_text', problem: 'nul' })(() =>
          mine('PUT', `${base()}/work-items/w-sec/plan`, '# plan\u0000', { 'content-type': 'text/markdown' }),
        ),
      }),
    )('refuses %s (the store cannot hold it)', (_name, kase) => check(kase));

    it.each(Object.entries(DISPLAY_SPOOFING))('refuses %s in an objective and in a todo', async (_name, spoof) => {
      await check(
        invalid({ field: 'objective', rule: spoof.rule })(() =>
          mine('POST', `${base()}/work-items`, { objective: spoof.text }),
        ),
      );
      await check(
        invalid({ field: 'todo_list[0].text', rule: spoof.rule })(() =>
          mine('POST', `${base()}/work-items`, { objective: 'o', todo_list: [{ text: spoof.text, state: 'pending' }] }),
        ),
      );
    });
  });

  describe('revisions', () => {
    const expected = (raw: string) =>
      field('expected_revision')(() =>
        mine('PATCH', `${base()}/work-items/w-sec`, `{"objective":"o","expected_revision":${raw}}`),
      );
    it.each(
      table({
        '-1': expected('-1'),
        '1.5': expected('1.5'),
        '"1e3"': expected('"1e3"'),
        '2^53+1 as a number (not exact in JSON)': expected('9007199254740993'),
        '"9223372036854775808" (beyond int8)': expected('"9223372036854775808"'),
        'a 1000-digit string': expected(`"${'9'.repeat(1000)}"`),
        '"-0"': expected('"-0"'),
        '" 1"': expected('" 1"'),
        '"01"': expected('"01"'),
        '""': expected('""'),
        true: expected('true'),
        'an array': expected('[1]'),
        'an object': expected('{"value":1}'),
      }),
    )('refuses expected_revision %s (400, nothing written)', (_name, kase) => check(kase));

    it('answers the largest int8 revision, the largest exact JSON number and 1e3 (a JSON number: 1000) with 409 and the current revision', async () => {
      const current = String(await world.revisionOf(world.mine));
      for (const raw of ['"9223372036854775807"', '9007199254740991', '1e3']) {
        await check(
          refused(409, 'conflict', { current_revision: current })(() =>
            mine('PATCH', `${base()}/work-items/w-sec`, `{"objective":"o","expected_revision":${raw}}`),
          ),
        );
      }
    });

    it.each(
      table({
        'after=-1': invalid({ field: 'after' })(() => mine('GET', `${base()}/events?after=-1`)),
        'after=1.5': invalid({ field: 'after' })(() => mine('GET', `${base()}/events?after=1.5`)),
        'after=1e3': invalid({ field: 'after' })(() => mine('GET', `${base()}/events?after=1e3`)),
        'after beyond uint64': invalid({ field: 'after' })(() =>
          mine('GET', `${base()}/events?after=18446744073709551616`),
        ),
        'after of 30 digits': invalid({ field: 'after' })(() =>
          mine('GET', `${base()}/events?after=${'9'.repeat(30)}`),
        ),
        'limit=1e3': invalid()(() => mine('GET', `${base()}/events?limit=1e3`)),
        'limit of 11 digits': invalid()(() => mine('GET', `${base()}/events?limit=99999999999`)),
        'a Last-Event-ID beyond uint64': invalid({ field: 'Last-Event-ID' })(() =>
          mine('GET', `${base()}/events/stream`, undefined, { 'last-event-id': '18446744073709551616' }),
        ),
        'a Last-Event-ID that is not a number': invalid({ field: 'Last-Event-ID' })(() =>
          mine('GET', `${base()}/events/stream`, undefined, { 'last-event-id': '1e3' }),
        ),
        'an Idempotency-Key with a space': invalid()(() =>
          mine('POST', `${base()}/work-items`, { objective: 'o' }, { 'idempotency-key': 'a key' }),
        ),
        'an Idempotency-Key of 201 characters': invalid()(() =>
          mine('POST', `${base()}/work-items`, { objective: 'o' }, { 'idempotency-key': 'k'.repeat(201) }),
        ),
        'an Idempotency-Key with a latin1 byte': invalid()(() =>
          mine('POST', `${base()}/work-items`, { objective: 'o' }, { 'idempotency-key': 'cl\u00e9' }),
        ),
      }),
    )('refuses %s', (_name, kase) => check(kase));

    it('reads after= beyond int8 (stream revisions are uint64 in reads, as in EventStoreDB) as an empty page', async () => {
      const reply = await mine('GET', `${base()}/events?after=9223372036854775808`);
      expect(reply.status).toBe(200);
      expect(reply.json.items).toEqual([]);
    });
  });
});
