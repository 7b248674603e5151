import type { Type } from '@nestjs/common';
import { ConfigError, loadConfig, roleRuns, type RuntimeRole } from '../config/runtime-config';
import { createRuntimeApp } from './runtime-app';

export interface BootOptions {
  /** Pins RUNTIME_ROLE (the single-role apps: projector, scheduler). */
  role?: RuntimeRole;
  /**
   * The modules of the API role (apps/runtime's ApiModule), or a loader of them: loaded only when
   * the role runs the API (a scheduler or projector started from the same entry does not load
   * the API's controllers and services).
   */
  api?: Type[] | (() => Promise<Type[]>);
}

/** The API modules the role needs: none when it runs no API (a loader is then not called). */
export async function apiModulesFor(role: RuntimeRole, api: BootOptions['api']): Promise<Type[] | undefined> {
  if (typeof api !== 'function') return api;
  return roleRuns(role).api ? api() : undefined;
}

/** What a role runs, in one line, for the console of the process that starts it. */
export function describeRole(role: RuntimeRole): string {
  const runs = roleRuns(role);
  const parts = ['GET /health, /docs'];
  if (runs.api) parts.push('HTTP /v1 API, /console and gRPC');
  if (runs.projector) parts.push('projector (read models)');
  if (runs.scheduler) parts.push('scheduler worker (timers, ticks, decisions)');
  return `agent-runtime role=${role} on node ${process.version}: ${parts.join('; ')}`;
}

/**
 * Every server main: read the environment (or fail naming the variable, exit 2), start,
 * and stop gracefully on SIGINT/SIGTERM. `role` pins RUNTIME_ROLE for single-role apps.
 */
export async function bootstrap(env: NodeJS.ProcessEnv = process.env, { role, api }: BootOptions = {}): Promise<void> {
  let config;
  try {
    config = loadConfig(role ? { ...env, RUNTIME_ROLE: role } : env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  process.stdout.write(`${describeRole(config.role)}\n`);
  // A signal during start-up (initdb can take seconds) is honoured once the app exists.
  let stopRequested = false;
  const early = () => {
    stopRequested = true;
  };
  process.on('SIGINT', early).on('SIGTERM', early);
  const runtime = await createRuntimeApp(config, { api: await apiModulesFor(config.role, api) });
  process.off('SIGINT', early).off('SIGTERM', early);
  if (stopRequested) {
    await runtime.close();
    return;
  }
  runtime.app.enableShutdownHooks(['SIGINT', 'SIGTERM'], { useProcessExit: true });
  await runtime.listen();
}

export function exitOnStartupFailure(error: unknown): never {
  process.stderr.write(
    `runtime failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
