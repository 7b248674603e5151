/**
 * Runs npm scripts at the same time and fails when any of them fails: `npm test` type-checks and
 * lints this way before jest (each is one single-threaded process after another; side by side
 * on two cores they take about half the time). Each script's output is printed whole when it
 * ends, so that two outputs never interleave.
 *
 *   node tools/run-parallel.js typecheck lint
 */
const { spawn } = require('node:child_process');

/** `npm run <script>`, with the npm that runs this script where there is one. */
function run(script) {
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, 'run', script]] : ['npm', ['run', script]];
  const started = Date.now();
  const output = [];
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk) => output.push([process.stdout, chunk]));
  child.stderr.on('data', (chunk) => output.push([process.stderr, chunk]));
  return new Promise((resolve) => {
    const done = (code) => {
      for (const [stream, chunk] of output) stream.write(chunk);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${code === 0 ? 'done' : `FAILED (exit ${code})`}: npm run ${script} (${seconds} s)\n`);
      resolve(code);
    };
    child.on('error', (error) => {
      output.push([process.stderr, `${error.message}\n`]);
      done(1);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  const scripts = process.argv.slice(2);
  if (scripts.length === 0) throw new Error('usage: node tools/run-parallel.js <npm script>...');
  const codes = await Promise.all(scripts.map(run));
  process.exitCode = codes.some((code) => code !== 0) ? 1 : 0;
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
