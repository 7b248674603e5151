import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import * as ts from 'typescript';

const REPO_ROOT = join(__dirname, '..', '..');
/** The data files the runtime reads beside its code (repoRoot-relative): linked, not copied. */
const DATA_DIRS = ['libs/read-models/migrations', 'libs/contracts/proto'];

/** Every .ts file of `dir` that the built runtime has (no specs, no declarations, no testing helpers). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' || entry.name === 'node_modules' ? [] : sources(path);
    const wanted = entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts');
    return wanted ? [path] : [];
  });
}

/**
 * The runtime in the layout of `npm run build` (`<root>/dist/apps/runtime/src/main.js` beside the
 * root's package.json and tsconfig.json, the data folders and node_modules linked), in a temporary
 * root: each file transpiled on its own with the project's compiler options (what ts-node does at
 * load time, `isolatedModules`), without the type check. A process started from it pays neither
 * the TypeScript compiler's memory nor its transpiling, as a deployed runtime does not.
 */
export function compileRuntime(): { root: string; main: string; seconds: number; remove(): void } {
  const started = Date.now();
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(REPO_ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('cannot read tsconfig.json');
  const compilerOptions: ts.CompilerOptions = { ...parsed.options, sourceMap: false, declaration: false };
  const root = mkdtempSync(join(tmpdir(), 'runtime-bench-build-'));
  try {
    for (const file of [...sources(join(REPO_ROOT, 'apps')), ...sources(join(REPO_ROOT, 'libs'))]) {
      const out = join(root, 'dist', relative(REPO_ROOT, file)).replace(/\.ts$/, '.js');
      const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, outputText);
    }
    for (const name of ['package.json', 'tsconfig.json']) copyFileSync(join(REPO_ROOT, name), join(root, name));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    for (const dir of DATA_DIRS) {
      mkdirSync(dirname(join(root, dir)), { recursive: true });
      symlinkSync(join(REPO_ROOT, dir), join(root, dir), 'dir');
    }
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return {
    root,
    main: join(root, 'dist', 'apps', 'runtime', 'src', 'main.js'),
    seconds: (Date.now() - started) / 1000,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
