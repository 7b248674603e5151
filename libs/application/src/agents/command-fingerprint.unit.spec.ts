import type { AgentCommand } from '@app/domain';
import { canonicalJson, commandFingerprint } from './command-fingerprint';

const command = (type: string, data: Record<string, unknown>, command_id = 'k-1') =>
  ({ type, data, meta: { now: '2026-01-01T00:00:00Z', command_id, actor: 'tok' } }) as unknown as AgentCommand;

describe('the fingerprint of a request under its key', () => {
  it('is the command type and data as sorted JSON, whatever the meta, key order or absent fields', () => {
    const a = command('EnqueueMessage', { kind: 'operator_prompt', body: { b: 1, a: [2, { y: 1, x: 0 }] } });
    const b = {
      ...command('EnqueueMessage', {
        body: { a: [2, { x: 0, y: 1 }], b: 1 },
        kind: 'operator_prompt',
        priority: undefined,
      }),
      meta: { now: '2027-05-05T00:00:00Z', command_id: 'other', actor: 'someone else' },
    } as AgentCommand;
    expect(commandFingerprint(a)).toBe(commandFingerprint(b));
    expect(commandFingerprint(a)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(canonicalJson({ b: 1, a: { d: null, c: undefined } })).toBe('{"a":{"d":null},"b":1}');
  });

  it('tells another command type, other data, null from absent and array order apart', () => {
    const base = commandFingerprint(command('UpdateWorkItem', { work_item_id: 'w-1', blocked_by: 'x' }));
    expect(commandFingerprint(command('CreateWorkItem', { work_item_id: 'w-1', blocked_by: 'x' }))).not.toBe(base);
    expect(commandFingerprint(command('UpdateWorkItem', { work_item_id: 'w-1', blocked_by: 'y' }))).not.toBe(base);
    expect(commandFingerprint(command('UpdateWorkItem', { work_item_id: 'w-1', blocked_by: null }))).not.toBe(
      commandFingerprint(command('UpdateWorkItem', { work_item_id: 'w-1' })),
    );
    expect(commandFingerprint(command('X', { list: [1, 2] }))).not.toBe(
      commandFingerprint(command('X', { list: [2, 1] })),
    );
  });

  it('leaves out what the server derives: a fresh token hash, a plan file path and time (its hash counts)', () => {
    const plan = (hash: string, path: string, updated_at: string) => ({ plan_artifact: { hash, path, updated_at } });
    const wait = (hash: string) =>
      command('WaitFor', { intent_id: 'wait_1', wake: 'external', callback_token_hash: hash });
    expect(commandFingerprint(wait('sha256:one'))).toBe(commandFingerprint(wait('sha256:two')));
    const create = (p: object) => command('CreateWorkItem', { objective: 'o', ...p });
    expect(commandFingerprint(create(plan('sha256:p', '/a/x.md', 'T1')))).toBe(
      commandFingerprint(create(plan('sha256:p', '/b/x.md', 'T2'))),
    );
    expect(commandFingerprint(create(plan('sha256:p', '/a/x.md', 'T1')))).not.toBe(
      commandFingerprint(create(plan('sha256:q', '/a/x.md', 'T1'))),
    );
    const patch = (p: object) => command('UpdateWorkItem', { work_item_id: 'w', objective: 'o', ...p });
    expect(commandFingerprint(patch(plan('sha256:p', '/a', 'T')), ['plan_artifact'])).toBe(
      commandFingerprint(patch(plan('sha256:changed', '/a', 'T')), ['plan_artifact']),
    );
  });
});
