import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { type AgentCommand, type AgentEvent, type AgentState, decide } from '@app/domain';
import type { EventStore } from '@app/event-store';
import { AgentRepository } from '@app/application';
import { AGENT_STREAM_PREFIX, agentStateDecider } from '@app/core';
import { openTestEventStore, testStoreEnv } from '@app/event-store/testing';
import { PostgresSnapshotStore } from '@app/read-models';
import { runCli } from '../../../../apps/cli/src/cli';
import { freshId, isolatedDatabaseUrl, testPool } from '../../../support/postgres';
import { projectNode, TS_CHILD_REQUIRES } from '../../../support/node-binary';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A temporary directory the embedded Postgres user can traverse. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/** Runs the CLI in-process with exactly this environment (nothing of the test process leaks in). */
export async function cli(argv: string[], env: Record<string, string>, cwd = tmpdir()): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = {
    env,
    cwd,
    stdout: (t: string) => void (stdout += t),
    stderr: (t: string) => void (stderr += t),
    stderrIsTTY: false,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

/** Runs `apps/cli/src/main.ts` in a child process (ts-node with swc, no type check), the way `npm run cli` does. */
export function cliProcess(argv: string[], env: Record<string, string>): Promise<CliRun> {
  const root = join(__dirname, '..', '..', '..', '..');
  const args = [...TS_CHILD_REQUIRES, join(root, 'apps', 'cli', 'src', 'main.ts'), ...argv];
  return new Promise((resolve, reject) => {
    execFile(
      projectNode(),
      args,
      { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 150_000 },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === 'number' ? error.code : error ? -1 : 0;
        if (error && code === -1) reject(error);
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

const plan = (id: string) => ({
  path: `/h/a/work-items/${id}/plan.md`,
  relative_path: `work-items/${id}/plan.md`,
  hash: 'sha256:0',
  byte_size: 11,
  updated_at: '2026-01-01T00:00:00.000Z',
  preview: 'secret plan',
  preview_complete: true,
});

/** An agent with work items, focus, a blocker, a completion and an operator message, written through the real repository. */
export async function seedAgent(pool: Pool, store: EventStore, agentId: string): Promise<void> {
  const repository = new AgentRepository<AgentState, AgentEvent>(
    store,
    new PostgresSnapshotStore(pool),
    agentStateDecider,
  );
  let seq = 0;
  const run = async (build: (meta: { now: string; command_id: string }) => AgentCommand) => {
    seq += 1;
    const command = build({
      now: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
      command_id: `${agentId}-c-${seq}`,
    });
    await repository.transact({ agentId, commandId: command.meta.command_id, actor: 'seed' }, (state) =>
      decide(command, state),
    );
  };
  await run((meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }));
  for (const id of ['w-1', 'w-2'])
    await run((meta) => ({
      type: 'CreateWorkItem',
      data: { work_item_id: id, objective: `do ${id}`, plan_artifact: plan(id) },
      meta,
    }));
  await run((meta) => ({ type: 'PickWorkItem', data: { work_item_id: 'w-1' }, meta }));
  await run((meta) => ({
    type: 'UpdateWorkItem',
    data: { work_item_id: 'w-2', blocked_by: 'waiting for review' },
    meta,
  }));
  await run((meta) => ({
    type: 'EnqueueMessage',
    data: { message_id: 'm-1', kind: 'operator_prompt', body: 'the secret body', authority: 'operator_instruction' },
    meta,
  }));
  await run((meta) => ({ type: 'CompleteWorkItem', data: { work_item_id: 'w-1' }, meta }));
}

/** A deployment of its own (an isolated schema) with one seeded agent, for the suite that calls it. */
export interface Deployment {
  agent: string;
  url: string;
  pool: Pool;
  store: EventStore;
  /** The working directory of the CLI runs. */
  work: string;
  env(): Record<string, string>;
}

export function seededDeployment(prefix: string): Deployment {
  const deployment = { agent: freshId('agent') } as Deployment;
  deployment.env = () => ({
    DATABASE_URL: deployment.url,
    RUNTIME_DATA_DIR: join(deployment.work, 'data'),
    ...testStoreEnv(deployment.url),
  });
  beforeAll(async () => {
    deployment.url = await isolatedDatabaseUrl(prefix);
    deployment.pool = await testPool(4, deployment.url);
    deployment.store = await openTestEventStore(deployment.pool, deployment.url, [AGENT_STREAM_PREFIX]);
    deployment.work = tempDir(`${prefix}-`);
    await seedAgent(deployment.pool, deployment.store, deployment.agent);
  });
  afterAll(async () => {
    await deployment.store?.close();
    await deployment.pool?.end();
  });
  return deployment;
}

/** The lines of an export's events.jsonl, parsed. */
export const exportLines = (dir: string) =>
  readFileSync(join(dir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
