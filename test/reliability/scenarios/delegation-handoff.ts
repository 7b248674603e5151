import { rmSync } from 'node:fs';
import { Pool } from 'pg';
import { AGENT_STREAM_PREFIX, agentStream } from '@app/core';
import type { StoredEvent } from '@app/event-store';
import { eventually, openTestEventStore } from '@app/event-store/testing';
import { ServiceProcess, tempDataDir } from '../support/service-process';
import { uniqueIds } from './scenario';

export interface HandoffScenarioOptions {
  parents?: number;
  childrenPerParent?: number;
}

type Delegation = { parent: string; child: string; item: string; delegationId: string; report: string };

/** What the scenario found: one line per broken promise (empty when every hand-off held). */
export interface HandoffReport {
  delegations: number;
  problems: string[];
  restart_ms: number;
}

/**
 * kill -9 of the service (all roles: API, projector, scheduler and the hand-off process manager)
 * while many children's delegated work completes, then a restart on the same store. The
 * children's hosts retry every step with its Idempotency-Key. Checked from the store: every
 * delegation completed exactly once on both streams, its child task ended once, its result
 * queued once on the parent item the record names, with the child's report.
 */
export async function killDuringHandoffs(databaseUrl: string, options: HandoffScenarioOptions = {}) {
  const dataDir = tempDataDir('reliability-handoff-');
  let service = await ServiceProcess.start({ dataDir, databaseUrl });
  const base = () => service.baseUrl;
  try {
    const send = sender(base);
    const parents = uniqueIds('hp', options.parents ?? 3);
    const delegations: Delegation[] = [];
    for (const parent of parents) {
      await send('POST', '/v1/agents', { agent_id: parent }, `${parent}:register`);
      for (const item of ['w-a', 'w-b'])
        await send(
          'POST',
          `/v1/agents/${parent}/work-items`,
          { work_item_id: item, objective: item },
          `${parent}:${item}`,
        );
      for (let i = 0; i < (options.childrenPerParent ?? 3); i++) {
        const child = `${parent}-c${i}`;
        const item = i % 2 === 0 ? 'w-a' : 'w-b';
        const body = {
          workspace_mode: 'private_child',
          agent_id: child,
          initial_message: `do ${child}`,
          work_item_id: item,
        };
        const reply = await send('POST', `/v1/agents/${parent}/spawn`, body, `${child}:spawn`);
        delegations.push({
          parent,
          child,
          item,
          delegationId: reply.delegation.delegation_id,
          report: `report of ${child}`,
        });
      }
    }
    const turns = new Map<string, string>();
    for (const d of delegations)
      turns.set(d.child, (await send('POST', `/v1/agents/${d.child}/activations`, {})).turn.turn_id);

    // The children finish concurrently; the service dies when half of them have.
    let finished = 0;
    let killed: Promise<void> | null = null;
    const victim = service;
    const restarted = (async () => {
      await new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (finished >= delegations.length / 2) {
            clearInterval(check);
            resolve();
          }
        }, 5);
      });
      killed = victim.kill9();
      await killed;
      const started = Date.now();
      service = await ServiceProcess.start({ dataDir, databaseUrl });
      return Date.now() - started;
    })();
    await Promise.all(
      delegations.map(async (d) => {
        await finishChild(send, d, turns.get(d.child)!);
        finished += 1;
      }),
    );
    const restartMs = await restarted;

    const problems: string[] = [];
    const open = async () => {
      let count = 0;
      for (const parent of parents) {
        const list = await send('GET', `/v1/agents/${parent}/delegations`);
        count += list.items.filter((item: { state: string }) => item.state !== 'completed').length;
      }
      return count;
    };
    await eventually('every delegation completed after the restart', open, (count) => count === 0, {
      timeoutMs: 60_000,
    });
    problems.push(...(await checkStore(databaseUrl, delegations)));
    return { delegations: delegations.length, problems, restart_ms: restartMs } satisfies HandoffReport;
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The child's host: its item, a round with the report, the completion, the close, the terminal. */
async function finishChild(send: Sender, d: Delegation, turnId: string): Promise<void> {
  const child = `/v1/agents/${d.child}`;
  const turn = `${child}/turns/${turnId}`;
  await send('POST', `${child}/work-items`, { work_item_id: 'w-child', objective: 'delegated' }, `${d.child}:create`);
  await send('POST', `${child}/work-items/w-child/pick`, {}, `${d.child}:pick`);
  await send('POST', `${turn}/rounds`, { round_id: 'r-1', text: d.report }, `${d.child}:round`);
  await send('POST', `${child}/work-items/w-child/complete`, { round_id: 'r-1' }, `${d.child}:complete`);
  await send('POST', `${turn}/rounds/r-1/close`, {}, `${d.child}:close`);
  await send('POST', `${turn}/terminal`, { terminal_kind: 'completed' }, `${d.child}:terminal`);
}

type Sender = (method: string, path: string, body?: object, key?: string) => Promise<any>;

/** A call retried (same key) through network errors and 5xx until the service answers it. */
function sender(base: () => string): Sender {
  return async (method, path, body, key) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(`${base()}${path}`, {
          method,
          headers: {
            authorization: 'Bearer tok-admin',
            ...(body !== undefined && { 'content-type': 'application/json' }),
            ...(key !== undefined && { 'idempotency-key': key }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
        const text = await response.text();
        if (response.status < 500) {
          if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
          return text === '' ? undefined : JSON.parse(text);
        }
      } catch (error) {
        if (error instanceof Error && error.message.startsWith(`${method} ${path}:`)) throw error;
      }
      if (attempt > 400) throw new Error(`${method} ${path}: no answer`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
}

async function checkStore(databaseUrl: string, delegations: Delegation[]): Promise<string[]> {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  const store = await openTestEventStore(pool, databaseUrl, [AGENT_STREAM_PREFIX]);
  const problems: string[] = [];
  try {
    for (const d of delegations) {
      const parent = await store.readStream(agentStream(d.parent));
      const child = await store.readStream(agentStream(d.child));
      const about = (events: StoredEvent[], type: string, field: string, value: string) =>
        events.filter((e) => e.type === type && (e.data as Record<string, unknown>)[field] === value);
      const completed = about(parent, 'WorkItemDelegationCompleted', 'delegation_id', d.delegationId);
      const reported = about(child, 'WorkItemDelegationReported', 'delegation_id', d.delegationId);
      const taskEnded = about(parent, 'TaskCompleted', 'task_id', d.delegationId);
      const results = about(parent, 'MessageQueued', 'task_id', d.delegationId);
      const expect1 = (what: string, events: StoredEvent[]) => {
        if (events.length !== 1) problems.push(`${d.delegationId}: ${events.length} ${what} (expected exactly one)`);
      };
      expect1('WorkItemDelegationCompleted', completed);
      expect1('WorkItemDelegationReported', reported);
      expect1('TaskCompleted', taskEnded);
      expect1('task_result messages', results);
      const summary = (completed[0]?.data as { result_summary?: string } | undefined)?.result_summary;
      if (completed.length === 1 && summary !== d.report) problems.push(`${d.delegationId}: result ${summary}`);
      const item = (results[0]?.data as { work_item_id?: string } | undefined)?.work_item_id;
      if (results.length === 1 && item !== d.item) problems.push(`${d.delegationId}: result on ${item}, not ${d.item}`);
    }
  } finally {
    await store.close();
    await pool.end();
  }
  return problems;
}
