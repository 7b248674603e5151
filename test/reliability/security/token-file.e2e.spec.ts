import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startTestApp, type TestApp } from '../../support/app';
import { freshId } from '../../support/postgres';
import { probe, secret } from './support/world';

/**
 * Issue 14 item 10: tokens from RUNTIME_API_TOKENS_FILE, reloaded without a restart: a change of
 * the file (watched) or SIGHUP brings new tokens in and old ones out; a bad file on reload is
 * logged and the previous tokens stay.
 */
describe('RUNTIME_API_TOKENS_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tokens-file-'));
  const path = join(dir, 'tokens.json');
  const agent = freshId('tokfile');
  const tokens = { first: secret('tok-first'), second: secret('tok-second'), admin: secret('tok-admin') };
  const lines: string[] = [];
  let app: TestApp;

  /** Written beside and renamed into place, as a deploy tool would (a watcher must see that too). */
  const writeGrants = (grants: unknown[] | string) => {
    const temp = `${path}.tmp`;
    writeFileSync(temp, typeof grants === 'string' ? grants : JSON.stringify({ grants }), { mode: 0o600 });
    renameSync(temp, path);
  };
  const host = (tokenList: string[]) => ({ name: 'runner', role: 'host', agents: [agent], tokens: tokenList });
  const admin = { name: 'root', role: 'admin', tokens: [tokens.admin] };
  const statusOf = async (token: string) =>
    (await probe(app, 'GET', `/v1/agents/${agent}/work-items`, `Bearer ${token}`)).status;
  const until = async (check: () => Promise<boolean>, ms = 10_000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };

  beforeAll(async () => {
    writeGrants([host([tokens.first]), admin]);
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    app = await startTestApp({
      tokens: null,
      env: { RUNTIME_API_TOKENS_FILE: path, LOG_LEVEL: 'info' },
      logDestination: sink,
    });
    const registered = await probe(
      app,
      'POST',
      '/v1/agents',
      `Bearer ${tokens.admin}`,
      JSON.stringify({ agent_id: agent }),
    );
    expect(registered.status).toBeLessThan(300);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the tokens of the file at start', async () => {
    expect(await statusOf(tokens.first)).toBe(200);
    expect(await statusOf(tokens.second)).toBe(401);
  });

  it('picks up a second token of the grant when the file changes, without a restart (rotation: both work)', async () => {
    writeGrants([host([tokens.first, tokens.second]), admin]);
    expect(await until(async () => (await statusOf(tokens.second)) === 200)).toBe(true);
    expect(await statusOf(tokens.first)).toBe(200);
  });

  it('keeps the previous tokens when the new file is bad, and logs an error that shows no token', async () => {
    const before = lines.length;
    writeGrants(
      JSON.stringify({
        grants: [{ name: 'runner', role: 'host', agents: [agent], tokens: [tokens.first] }, { name: 'runner' }],
      }),
    );
    process.emit('SIGHUP', 'SIGHUP');
    expect(await until(async () => lines.slice(before).some((line) => line.includes('API tokens file refused')))).toBe(
      true,
    );
    const refused = lines.slice(before).find((line) => line.includes('API tokens file refused'))!;
    expect(refused).toContain('grants[1]');
    expect(refused).not.toContain(tokens.first);
    expect(await statusOf(tokens.first)).toBe(200);
    expect(await statusOf(tokens.second)).toBe(200);
  });

  it('drops the old token once the rotation is done (SIGHUP reloads at once)', async () => {
    writeGrants([host([tokens.second]), admin]);
    process.emit('SIGHUP', 'SIGHUP');
    expect(await until(async () => (await statusOf(tokens.first)) === 401)).toBe(true);
    expect(await statusOf(tokens.second)).toBe(200);
    expect(lines.join('\n')).not.toContain(tokens.second);
  });
});

describe('RUNTIME_API_TOKENS_FILE at start-up', () => {
  it('refuses to start on a bad file, naming the grant and not the token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tokens-file-'));
    const path = join(dir, 'tokens.json');
    writeFileSync(
      path,
      JSON.stringify({ grants: [{ name: 'x', role: 'boss', agents: ['a'], tokens: ['s3cret-token'] }] }),
    );
    try {
      const started = startTestApp({ tokens: null, env: { RUNTIME_API_TOKENS_FILE: path } });
      await expect(started).rejects.toThrow(/RUNTIME_API_TOKENS_FILE: grants\[0\] \(x\) needs a "role"/);
      await expect(started).rejects.toThrow(
        expect.objectContaining({ message: expect.not.stringContaining('s3cret') }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses RUNTIME_API_TOKENS and RUNTIME_API_TOKENS_FILE together', async () => {
    await expect(startTestApp({ env: { RUNTIME_API_TOKENS_FILE: '/nonexistent.json' } })).rejects.toThrow(
      /RUNTIME_API_TOKENS and RUNTIME_API_TOKENS_FILE are both set/,
    );
  });
});
