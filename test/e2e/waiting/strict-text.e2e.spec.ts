import { status as GrpcStatus } from '@grpc/grpc-js';
import { refusalOf, runtimeGrpcClient } from '../../support/grpc';
import { waitingSuite } from './waiting-suite';

// Issue 14: display text refuses bidi and control characters (item 9), and the refusal of a
// malformed Idempotency-Key says exactly which characters a key may hold (item 3).
describe('strict text over HTTP and gRPC', () => {
  const s = waitingSuite();
  let grpc: ReturnType<typeof runtimeGrpcClient>;
  beforeAll(() => {
    grpc = runtimeGrpcClient(s.app);
  });
  afterAll(() => grpc?.close());
  const rpc = (method: string, request: object) => grpc.call(method, { agent_id: s.mine, ...request }, 'tok-mine');

  describe('display spoofing', () => {
    const RLO = 'report\u202Efdp.exe';
    it.each<[string, string, object, string, string]>([
      ['a work item objective', 'work-items', { objective: RLO }, 'objective', 'bidi_control'],
      [
        'a todo text with a newline',
        'work-items',
        { objective: 'o', todo_list: [{ text: 'a\nb', state: 'pending' }] },
        'todo_list[0].text',
        'control_character',
      ],
      ['a wake hint source', 'wake-hints', { source: RLO, reason: 'r' }, 'source', 'bidi_control'],
      [
        'a wait reason with an escape',
        'waits',
        { wake: 'operator_input', reason: 'a\u001b[2Jb' },
        'reason',
        'control_character',
      ],
      ['a task kind', 'tasks', { kind: 'build\u200F', wait_policy: 'background' }, 'kind', 'bidi_control'],
    ])('refuses %s over HTTP with 400 naming the field, and writes nothing', async (_name, path, body, field, rule) => {
      const before = await s.written(s.mine);
      const reply = await s.scoped('POST', `${s.base}/${path}`, body);
      expect({ status: reply.status, code: reply.body.error?.code, details: reply.body.error?.details }).toEqual({
        status: 400,
        code: 'validation_failed',
        details: expect.objectContaining({ field, rule }),
      });
      expect(await s.written(s.mine)).toBe(before);
    });

    it('refuses them over gRPC with INVALID_ARGUMENT naming the field', async () => {
      const refusal = refusalOf(await rpc('CreateWorkItem', { objective: RLO }));
      expect(refusal).toMatchObject({
        code: GrpcStatus.INVALID_ARGUMENT,
        errorCode: 'validation_failed',
        details: { field: 'objective', rule: 'bidi_control', code_point: 'U+202E' },
      });
      const label = refusalOf(await rpc('SubmitWakeHint', { source: 'ci\u0007', reason: 'r' }));
      expect(label).toMatchObject({
        errorCode: 'validation_failed',
        details: { field: 'source', rule: 'control_character' },
      });
    });

    it('keeps multi-line prose and message bodies as they are', async () => {
      const item = await s.scoped('POST', `${s.base}/work-items`, { objective: 'first\n\tthen second' });
      expect(item.status).toBe(201);
      expect(item.body.work_item.objective).toBe('first\n\tthen second');
      const message = await s.scoped('POST', `${s.base}/messages`, {
        kind: 'operator_prompt',
        body: 'raw \u202e\u0001 data',
      });
      expect(message.status).toBe(201);
    });
  });

  describe('Idempotency-Key', () => {
    const VISIBLE_ASCII = Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join('');

    it.each([
      ['a space', 'a key'],
      ['a tab', 'a\tkey'],
      ['a character outside ASCII', 'clé'],
      ['201 characters', 'k'.repeat(201)],
    ])('refuses a key with %s, and the message names the allowed characters', async (_name, key) => {
      const reply = await s.scoped('POST', `${s.base}/work-items`, { objective: 'o' }, { 'idempotency-key': key });
      expect(reply.status).toBe(400);
      expect(reply.body.error.message).toBe(
        'idempotency-key must be 1 to 200 visible ASCII characters, 0x21 (!) to 0x7E (~): letters, digits and ' +
          'punctuation; no space, tab or other control character, nothing outside ASCII',
      );
      expect(reply.body.error.details).toMatchObject({ header: 'idempotency-key', pattern: '^[\\x21-\\x7e]{1,200}$' });
    });

    it('accepts every character the message allows', async () => {
      const reply = await s.scoped(
        'POST',
        `${s.base}/work-items`,
        { objective: 'o' },
        { 'idempotency-key': VISIBLE_ASCII },
      );
      expect(reply.status).toBe(201);
      const viaGrpc = await rpc('CreateWorkItem', { objective: 'o', command_id: `${VISIBLE_ASCII}-grpc` });
      expect(viaGrpc.error).toBeNull();
    });

    it('says the same over gRPC for command_id', async () => {
      const refusal = refusalOf(await rpc('CreateWorkItem', { objective: 'o', command_id: 'a key' }));
      expect(refusal).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT, errorCode: 'validation_failed' });
      expect(refusal.message).toContain('command_id must be 1 to 200 visible ASCII characters, 0x21 (!) to 0x7E (~)');
      expect(refusal.details).toMatchObject({ field: 'command_id' });
    });
  });
});
