import { resolve } from 'node:path';
import { renderConsole } from './report';
import { runBench } from './run';

const USAGE = `npm run bench [-- --quick] [-- --only 1,3] [-- --out <file>]
  --quick      smoke run: every figure with tiny counts (under a minute); writes no report unless --out is given
  --only ids   run only these figures (comma-separated ids); writes no report unless --out is given
  --out file   write the Markdown report there (default for a full run: docs/benchmarks.md)`;

function parseArgs(argv: string[]): { quick: boolean; only?: number[]; out?: string } {
  const args: { quick: boolean; only?: number[]; out?: string } = { quick: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') args.quick = true;
    else if (arg === '--only')
      args.only = (argv[++i] ?? '')
        .split(',')
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0);
    else if (arg === '--out') args.out = resolve(argv[++i] ?? '');
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else {
      process.stderr.write(`unknown argument ${arg}\n${USAGE}\n`);
      process.exit(2);
    }
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { report, path } = await runBench(args);
  process.stdout.write(`\n${renderConsole(report)}\n\n`);
  process.stdout.write(
    `${report.mode} run took ${report.seconds.toFixed(1)} s${path ? `; report written to ${path}` : ''}\n`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
