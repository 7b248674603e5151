import { parseArgs } from './args';
import type { CliIo } from './cli-io';
import { ProgressBar } from './progress';
import { choosePostgres, safeTarget } from './store-selection';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeServiceAddress } from '@app/application';

describe('CLI arguments', () => {
  it('separates positionals, valued options (both spellings) and switches', () => {
    expect(parseArgs(['import', 'dir', '--as', 'a-2'])).toEqual({
      command: 'import',
      positionals: ['dir'],
      flags: { as: 'a-2' },
    });
    expect(parseArgs(['import', '--as=a-2', 'dir'])).toEqual({
      command: 'import',
      positionals: ['dir'],
      flags: { as: 'a-2' },
    });
    expect(parseArgs(['export', 'a', 'd', '--redact-bodies'])).toEqual({
      command: 'export',
      positionals: ['a', 'd'],
      flags: { 'redact-bodies': true },
    });
    expect(() => parseArgs(['import', 'dir', '--as', '--x'])).toThrow('--as needs a value');
  });
});

describe('the progress bar', () => {
  const io = (tty: boolean) => {
    const out: string[] = [];
    return { out, io: { stderr: (t: string) => out.push(t), stderrIsTTY: tty } as unknown as CliIo };
  };

  it('draws on a terminal and clears itself when done', () => {
    const { out, io: terminal } = io(true);
    const bar = new ProgressBar(terminal, 'rebuilding', 10);
    bar.update(5);
    bar.done();
    expect(out[0]).toMatch(/^\rrebuilding \[#{15}-{15}\] 50% 5\/10 events \d+\/s$/);
    expect(out[1]).toBe('\r\x1b[2K');
  });

  it('stays silent in a pipe or a log', () => {
    const { out, io: pipe } = io(false);
    const bar = new ProgressBar(pipe, 'rebuilding', 10);
    bar.update(5);
    bar.done();
    expect(out).toEqual([]);
  });
});

describe('choosing the Postgres of the deployment', () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), 'cli-choice-'));
  const url = 'postgres://runtime:pw@127.0.0.1:5999/runtime';

  it('takes DATABASE_URL first, naming it without the password', async () => {
    const choice = await choosePostgres({ databaseUrl: url, dataDir: dataDir() }, async () => false);
    expect(choice).toMatchObject({
      kind: 'database_url',
      url,
      describe: 'Postgres from DATABASE_URL (127.0.0.1:5999/runtime)',
    });
    expect(safeTarget('nonsense')).toBe('(unparseable URL)');
  });

  it("takes a live, answering service's address", async () => {
    const dir = dataDir();
    await writeServiceAddress(dir, { pid: process.pid, postgres_url: url, role: 'all', started_at: '' });
    expect(await choosePostgres({ databaseUrl: null, dataDir: dir }, async () => true)).toMatchObject({
      kind: 'service',
      url,
    });
  });

  it('ignores, and reports, the file of a service that died or does not answer', async () => {
    const dead = dataDir();
    await writeServiceAddress(dead, { pid: 2 ** 22 + 12345, postgres_url: url, role: 'all', started_at: '' });
    expect(await choosePostgres({ databaseUrl: null, dataDir: dead }, async () => true)).toMatchObject({
      kind: 'embedded',
      note: expect.stringMatching(/process \d+ is gone/),
    });
    const silent = dataDir();
    await writeServiceAddress(silent, { pid: process.pid, postgres_url: url, role: 'all', started_at: '' });
    expect(await choosePostgres({ databaseUrl: null, dataDir: silent }, async () => false)).toMatchObject({
      kind: 'embedded',
      note: expect.stringContaining('does not answer'),
    });
  });

  it('starts its own embedded Postgres when no service published an address', async () => {
    expect(await choosePostgres({ databaseUrl: null, dataDir: dataDir() }, async () => true)).toMatchObject({
      kind: 'embedded',
    });
  });
});
