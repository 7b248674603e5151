import { Pool } from 'pg';
import { type AgentCommand, type AgentEvent, type AgentState, decide } from '@app/domain';
import { AgentRepository } from '@app/application';
import { AGENT_STREAM_PREFIX, agentStateDecider } from '@app/core';
import { openTestEventStore } from '@app/event-store/testing';
import { PostgresSnapshotStore } from '@app/read-models';
import { isolatedDatabaseUrl, testPool } from '../../support/postgres';
import { AckLog } from '../support/ack-log';
import { ensureApplyLog } from '../support/apply-log';
import { freshKey } from '../support/client';
import { checkHistory } from '../support/history';
import { OutputTail, spawnTs } from '../support/service-process';
import { between, type ScenarioResult, uniqueIds } from './scenario';

export interface KillProjectorOptions {
  /** How many times the projector is killed mid-batch before a last one catches up. */
  kills?: number;
  agents?: number;
  /** Commands written before the first projector starts (its backlog). */
  backlog?: number;
}

const plan = (id: string) => ({
  path: `/h/work-items/${id}/plan.md`,
  relative_path: `work-items/${id}/plan.md`,
  hash: 'sha256:0',
  byte_size: 0,
  updated_at: '2026-01-01T00:00:00.000Z',
  preview: '',
  preview_complete: true,
});

/**
 * kill -9 of the projection worker in the middle of a batch: a child process runs the runtime's
 * runner, pauses inside each batch's transaction (rows, checkpoint and apply log written, not
 * committed) and is killed there, again and again, while a writer keeps appending. A last worker
 * catches up. Checked: the apply log shows every position applied exactly once across all the
 * workers, and the read models equal a rebuild.
 */
export async function killProjectorMidBatch(options: KillProjectorOptions = {}): Promise<ScenarioResult> {
  const started = Date.now();
  const url = await isolatedDatabaseUrl('killproj');
  const pool: Pool = await testPool(6, url);
  await ensureApplyLog(pool);
  const store = await openTestEventStore(pool, url, [AGENT_STREAM_PREFIX]);
  const repository = new AgentRepository<AgentState, AgentEvent>(
    store,
    new PostgresSnapshotStore(pool),
    agentStateDecider,
  );
  const log = new AckLog();
  const agents = uniqueIds('proj', options.agents ?? 6);
  let seq = 0;
  const run = async (
    agentId: string,
    build: (meta: { now: string; command_id: string; actor: string }) => AgentCommand,
  ) => {
    seq += 1;
    const command = build({
      now: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, seq)).toISOString(),
      command_id: freshKey('proj'),
      actor: 'reliability',
    });
    const result = await repository.transact(
      { agentId, commandId: command.meta.command_id, actor: 'reliability' },
      (state) => decide(command, state),
    );
    log.record(
      {
        key: command.meta.command_id,
        agent: agentId,
        method: 'DOMAIN',
        path: command.type,
        body: command.data,
        appends: true,
      },
      {
        status: 200,
        body: { revision: result.revision?.toString() ?? null },
      },
    );
  };
  const lastItem = new Map<string, string>();
  const write = async (count: number) => {
    for (let n = 0; n < count; n++) {
      const agentId = agents[n % agents.length];
      const previous = lastItem.get(agentId);
      if (n % 3 === 2 && previous) {
        await run(agentId, (meta) => ({
          type: 'PickWorkItem',
          data: { work_item_id: previous, reason: 'next' },
          meta,
        }));
      } else {
        const id = `w-${seq}`;
        await run(agentId, (meta) => ({
          type: 'CreateWorkItem',
          data: { work_item_id: id, objective: `objective ${n}`, plan_artifact: plan(id) },
          meta,
        }));
        lastItem.set(agentId, id);
      }
    }
  };
  const children: Array<ReturnType<typeof spawnTs>> = [];
  try {
    for (const agentId of agents)
      await run(agentId, (meta) => ({ type: 'RegisterAgent', data: { agent_id: agentId }, meta }));
    await write(options.backlog ?? 150);
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await write(3);
        // Time-based on purpose: a pace for the background writer (nothing is awaited), so the backlog stays bounded.
        await sleep(30);
      }
    })();
    let killedInBatch = 0;
    for (let kill = 0; kill < (options.kills ?? 2); kill++) {
      const env = {
        DATABASE_URL: url,
        PROJECTOR_HOLD: 'stdin',
        PROJECTOR_BATCH: '40',
        PROJECTOR_LABEL: `killed-${kill}`,
      };
      const child = spawnTs('test/reliability/support/projector-child.ts', env, { stdin: 'pipe' });
      children.push(child);
      child.stdin!.on('error', () => undefined); // a write to a child that just died
      const output = new OutputTail();
      output.attach(child);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const batches = between(1, 3);
      let seen = 0;
      // The child holds each batch open until told to go on: the batches before the chosen one commit, the kill lands inside it.
      const inBatch = output.wait((line) => {
        if (!line.startsWith('in-batch')) return false;
        if (++seen >= batches) return true;
        child.stdin!.write('go\n');
        return false;
      });
      const outcome = await Promise.race([
        inBatch.then(() => 'in-batch'),
        exited.then(() => 'exited'),
        sleep(60_000).then(() => 'timeout'),
      ]);
      if (outcome !== 'in-batch') throw new Error(`projector child ${outcome} before a batch:\n${output.text()}`);
      process.kill(child.pid!, 'SIGKILL');
      await exited;
      killedInBatch += 1;
    }
    writing = false;
    await writer;
    const last = spawnTs('test/reliability/support/projector-child.ts', { DATABASE_URL: url, PROJECTOR_LABEL: 'last' });
    children.push(last);
    const output = new OutputTail();
    output.attach(last);
    const lastExited = new Promise((resolve) => last.once('exit', resolve));
    try {
      const report = await checkHistory({ url, log, applyLog: { after: -1n }, waitMs: 60_000 });
      const { rows } = await pool.query(
        'SELECT runner, count(*)::int AS n FROM reliability_apply_log GROUP BY runner ORDER BY runner',
      );
      const applied = Object.fromEntries(rows.map((row) => [`applied_by_${row.runner}`, row.n]));
      return {
        name: 'kill -9 of the projector mid-batch',
        report,
        notes: { killed_in_batch: killedInBatch, ...applied, duration_ms: Date.now() - started },
      };
    } finally {
      last.kill('SIGTERM');
      await Promise.race([lastExited, sleep(10_000)]);
    }
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await store.close();
    await pool.end();
  }
}

/** Unreferenced: a timer left in a race never keeps the process alive. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
