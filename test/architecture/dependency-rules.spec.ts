import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { projectNode } from '../support/node-binary';

/*
 * The import rules of .dependency-cruiser.cjs (the library order, faces, cycles, purity...),
 * run through dependency-cruiser's API: the tree holds to them, and each kind of break is
 * reported, so the rules are seen to be able to fail.
 */
const ROOT = join(__dirname, '..', '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const CRUISE = join(__dirname, 'support', 'cruise.mjs');

interface Violation {
  rule: string;
  from: string;
  to: string;
  /** The files of a cycle, in order, back to `from`. */
  cycle?: string[];
}

/** dependency-cruiser is ESM only: its API runs in a child process, from `cwd`. */
async function cruise(cwd: string, paths: string[]): Promise<{ modules: number; violations: Violation[] }> {
  const { stdout } = await promisify(execFile)(projectNode(), [CRUISE, CONFIG, ...paths], {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

describe('the import rules', () => {
  it('hold in the tree: no violation in apps, libs, test, tools and bench', async () => {
    const { modules, violations } = await cruise(ROOT, ['apps', 'libs', 'test', 'tools', 'bench']);
    expect(modules).toBeGreaterThan(400);
    expect(violations).toEqual([]);
  }, 60_000);
});

describe('the import rules on a small tree that breaks them', () => {
  let dir: string;
  let violations: Violation[];
  const byRule = (a: { rule: string }, b: { rule: string }) => a.rule.localeCompare(b.rule);
  const of = (file: string) =>
    violations
      .filter((v) => v.from === file)
      .map(({ rule, to }) => ({ rule, to }))
      .sort(byRule);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
    const { compilerOptions } = require(join(ROOT, 'tsconfig.json')) as {
      compilerOptions: { paths: Record<string, string[]> };
    };
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { baseUrl: '.', moduleResolution: 'node', paths: compilerOptions.paths },
      }),
      'libs/application/src/index.ts': "export const application = 'application';\n",
      'libs/core/src/index.ts': "export { agentStream } from './agents/agent-stream';\n",
      'libs/core/src/agents/agent-stream.ts': 'export const agentStream = (id: string) => `agent-${id}`;\n',
      // A back edge from the ground: the domain imports the application.
      'libs/domain/src/decide.ts':
        "import { application } from '@app/application';\nexport const decide = () => application;\n",
      // A back edge between libraries: the read models import the application.
      'libs/read-models/src/projector.ts':
        "import { application } from '@app/application';\nexport const projector = () => application;\n",
      // A deep import: a file inside libs/core instead of its face.
      'libs/application/src/handler.ts':
        "import { agentStream } from '../../core/src/agents/agent-stream';\nexport const handler = agentStream;\n",
      // Inside the domain, a view that uses a reply renderer (the replies use the views, not the other way round).
      'libs/domain/src/views/summary.view.ts':
        "import { reply } from '../replies/summary.replies';\nexport const summary = reply;\n",
      'libs/domain/src/replies/summary.replies.ts': 'export const reply = () => ({});\n',
      // A two-file cycle.
      'libs/core/src/agents/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'libs/core/src/agents/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    ({ violations } = await cruise(dir, ['libs']));
  }, 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses libs/domain importing @app/application: the library order, and the domain is pure', () => {
    expect(of('libs/domain/src/decide.ts')).toEqual([
      { rule: 'domain-is-pure', to: 'libs/application/src/index.ts' },
      { rule: 'library-order', to: 'libs/application/src/index.ts' },
    ]);
  });

  it('refuses libs/read-models importing @app/application: the library order', () => {
    expect(of('libs/read-models/src/projector.ts')).toEqual([
      { rule: 'library-order', to: 'libs/application/src/index.ts' },
    ]);
  });

  it('refuses a file of another library reached past its face', () => {
    expect(of('libs/application/src/handler.ts')).toEqual([
      { rule: 'no-deep-import', to: 'libs/core/src/agents/agent-stream.ts' },
    ]);
  });

  it('refuses a two-file cycle (reported once)', () => {
    const cycles = violations.filter((v) => v.rule === 'no-circular');
    expect(cycles).toHaveLength(1);
    expect([cycles[0].from, ...cycles[0].cycle!].sort()).toEqual([
      'libs/core/src/agents/a.ts',
      'libs/core/src/agents/a.ts',
      'libs/core/src/agents/b.ts',
    ]);
  });

  it('refuses a domain view importing a reply renderer', () => {
    expect(of('libs/domain/src/views/summary.view.ts')).toEqual([
      { rule: 'views-before-replies', to: 'libs/domain/src/replies/summary.replies.ts' },
    ]);
  });

  it('reports nothing else', () => {
    expect(violations).toHaveLength(6);
  });
});
