import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN_FILE, ensureAdminToken } from './admin-token';

const logger = () => ({ info: jest.fn(), warn: jest.fn() });

describe('ensureAdminToken when RUNTIME_API_TOKENS is unset', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'admin-token-')), 'data');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('creates the token once, mode 0600, logging the path and never the token', async () => {
    const log = logger();
    const grant = await ensureAdminToken(dir, log);
    const path = join(dir, ADMIN_TOKEN_FILE);
    expect(grant).toMatchObject({ name: 'admin-token', admin: true, agents: [] });
    expect(grant.token.length).toBeGreaterThanOrEqual(40);
    expect(readFileSync(path, 'utf8').trim()).toBe(grant.token);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(log.info).toHaveBeenCalledWith({ path, created: true }, expect.any(String));
    expect(JSON.stringify(log.info.mock.calls)).not.toContain(grant.token);
  });

  it('reuses the same token on later starts', async () => {
    const first = await ensureAdminToken(dir, logger());
    const log = logger();
    const second = await ensureAdminToken(dir, log);
    expect(second.token).toBe(first.token);
    expect(log.info).toHaveBeenCalledWith(expect.objectContaining({ created: false }), expect.any(String));
  });

  it('agrees on one token when several processes start at once', async () => {
    const grants = await Promise.all([1, 2, 3, 4].map(() => ensureAdminToken(dir, logger())));
    expect(new Set(grants.map((grant) => grant.token)).size).toBe(1);
  });

  it('tightens a file readable by others', async () => {
    const first = await ensureAdminToken(dir, logger());
    chmodSync(join(dir, ADMIN_TOKEN_FILE), 0o644);
    const log = logger();
    expect((await ensureAdminToken(dir, log)).token).toBe(first.token);
    expect(statSync(join(dir, ADMIN_TOKEN_FILE)).mode & 0o777).toBe(0o600);
    expect(log.warn).toHaveBeenCalled();
  });

  it('refuses an unusable file with a way out', async () => {
    await ensureAdminToken(dir, logger());
    writeFileSync(join(dir, ADMIN_TOKEN_FILE), 'short\n');
    await expect(ensureAdminToken(dir, logger())).rejects.toThrow(/delete it to generate a new one/);
  });
});
