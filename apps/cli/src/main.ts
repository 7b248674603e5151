import '../../register-paths';
import { ConfigError, HealthController, loadConfig } from '@app/platform';
import { createRuntimeApp } from '../../runtime/src/runtime-app';

const PLANNED = ['replay', 'audit', 'explain', 'fixtures import|export', 'projections rebuild'];

/**
 * Placeholder CLI. `check` boots the same platform (Postgres, migrations, event store;
 * RUNTIME_ROLE fixed to projector so no server listens), prints the health report, exits.
 */
async function main(argv: string[]): Promise<number> {
  const command = argv[0];
  if (command !== 'check') {
    process.stdout.write(`usage: agent-runtime check\n  (coming: ${PLANNED.join(', ')})\n`);
    return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
  let config;
  try {
    config = loadConfig({ ...process.env, RUNTIME_ROLE: 'projector', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  process.stdout.write(`agent-runtime check: booting the platform (data dir ${config.dataDir})\n`);
  const runtime = await createRuntimeApp(config);
  try {
    await runtime.app.init();
    const report = await runtime.app.get(HealthController).check();
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`check failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await runtime.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
