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
  /** kill -9 this many times while the children finish, spread over their progress (default 1). */
  kills?: number;
  /** One more kill -9 while the spawns are being acknowledged (the parent's and the child's appends). */
  killDuringSpawns?: boolean;
}

/** A start (ts-node transpiles the service each time) may take minutes on a loaded machine. */
const START_TIMEOUT_MS = 240_000;

type Delegation = { parent: string; child: string; item: string; delegationId: string; report: string };

/** What the scenario found: one line per broken promise (empty when every hand-off held). */
export interface HandoffReport extends HandoffCheck {
  delegations: number;
  kills: number;
  restart_ms: number;
}

/**
 * kill -9 of the service (all roles: API, projector, scheduler and the hand-off process manager)
 * while many children's delegated work completes (and, with `killDuringSpawns`, while the
 * parents spawn them), then a restart on the same store, as many times as asked. The callers
 * retry every step with its Idempotency-Key. Checked from the store: every delegation completed
 * exactly once on both streams, its child task ended once, its result queued once on the parent
 * item the record names, with the child's report.
 */
export async function killDuringHandoffs(databaseUrl: string, options: HandoffScenarioOptions = {}) {
  const dataDir = tempDataDir('reliability-handoff-');
  let service = await ServiceProcess.start({ dataDir, databaseUrl, timeoutMs: START_TIMEOUT_MS });
  const restarts: number[] = [];
  const killers: Array<Promise<void>> = [];
  let over = false;
  /** Once `progress()` reaches `at`: kill -9, restart on the same data directory. */
  const killWhen = async (progress: () => number, at: number) => {
    await until(() => over || progress() >= at);
    if (over) return;
    await service.kill9();
    const started = Date.now();
    service = await ServiceProcess.start({ dataDir, databaseUrl, timeoutMs: START_TIMEOUT_MS });
    restarts.push(Date.now() - started);
  };
  try {
    const send = sender(() => service.baseUrl);
    const parents = uniqueIds('hp', options.parents ?? 3);
    const perParent = options.childrenPerParent ?? 3;
    for (const parent of parents) {
      await send('POST', '/v1/agents', { agent_id: parent }, `${parent}:register`);
      for (const item of ['w-a', 'w-b'])
        await send(
          'POST',
          `/v1/agents/${parent}/work-items`,
          { work_item_id: item, objective: item },
          `${parent}:${item}`,
        );
    }
    // The parents spawn side by side (each its children in turn).
    const delegations: Delegation[] = [];
    const spawning = options.killDuringSpawns
      ? killWhen(() => delegations.length, Math.ceil((parents.length * perParent) / 2))
      : null;
    if (spawning) killers.push(spawning);
    // A restart that fails ends the scenario at once, with the service's output (not the callers' timeout).
    await Promise.all([
      ...(spawning ? [spawning] : []),
      ...parents.map(async (parent) => {
        for (let i = 0; i < perParent; i++) {
          const child = `${parent}-c${i}`;
          const item = i % 2 === 0 ? 'w-a' : 'w-b';
          const body = {
            workspace_mode: 'private_child',
            agent_id: child,
            initial_message: `do ${child}`,
            work_item_id: item,
          };
          const reply = await send('POST', `/v1/agents/${parent}/spawn`, body, `${child}:spawn`);
          const delegationId = reply.delegation.delegation_id;
          delegations.push({ parent, child, item, delegationId, report: `report of ${child}` });
        }
      }),
    ]);
    // A lease longer than any restart: the children's turns outlive the kills.
    const turns = new Map<string, string>();
    for (const d of delegations) {
      const activation = await send('POST', `/v1/agents/${d.child}/activations`, { lease_ttl_ms: 600_000 });
      turns.set(d.child, activation.turn.turn_id);
    }

    // The children finish concurrently; the service dies at even steps of their progress.
    let finished = 0;
    const kills = options.kills ?? 1;
    const killing = (async () => {
      for (let k = 1; k <= kills; k++) await killWhen(() => finished, (delegations.length * k) / (kills + 1));
    })();
    killers.push(killing);
    await Promise.all([
      killing,
      ...delegations.map(async (d) => {
        await finishChild(send, d, turns.get(d.child)!);
        finished += 1;
      }),
    ]);

    const open = async () => {
      let count = 0;
      for (const parent of parents) {
        const list = await send('GET', `/v1/agents/${parent}/delegations`);
        count += list.items.filter((item: { state: string }) => item.state !== 'completed').length;
      }
      return count;
    };
    await eventually('every delegation completed after the restarts', open, (count) => count === 0, {
      timeoutMs: 60_000 + 2_000 * delegations.length,
    });
    const check = await checkStore(databaseUrl, delegations);
    return {
      delegations: delegations.length,
      ...check,
      kills: restarts.length,
      restart_ms: Math.max(0, ...restarts),
    } satisfies HandoffReport;
  } finally {
    // A step failed before a kill: no kill (nor a restart) after the scenario is over.
    over = true;
    await Promise.allSettled(killers);
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function until(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (check()) {
        clearInterval(timer);
        resolve();
      }
    }, 5);
  });
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
    // Longer than a restart may take (START_TIMEOUT_MS) on a loaded machine.
    const until = Date.now() + START_TIMEOUT_MS + 60_000;
    let last = 'nothing yet';
    for (;;) {
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
        last = `${response.status} ${text.slice(0, 200)}`;
        if (response.status < 500) {
          if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
          return text === '' ? undefined : JSON.parse(text);
        }
      } catch (error) {
        if (error instanceof Error && error.message.startsWith(`${method} ${path}:`)) throw error;
        last = error instanceof Error ? error.message : String(error);
      }
      if (Date.now() > until) throw new Error(`${method} ${path}: no answer (last: ${last})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
}

/** What the store shows: problems, and the delegations whose hand-off is lost or doubled. */
export interface HandoffCheck {
  problems: string[];
  events: number;
  lost: number;
  duplicated: number;
}

async function checkStore(databaseUrl: string, delegations: Delegation[]): Promise<HandoffCheck> {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  const store = await openTestEventStore(pool, databaseUrl, [AGENT_STREAM_PREFIX]);
  const check: HandoffCheck = { problems: [], events: 0, lost: 0, duplicated: 0 };
  const streams = new Map<string, StoredEvent[]>();
  const streamOf = async (agent: string) => {
    if (!streams.has(agent)) streams.set(agent, await store.readStream(agentStream(agent)));
    return streams.get(agent)!;
  };
  try {
    for (const d of delegations) {
      const parent = await streamOf(d.parent);
      const child = await streamOf(d.child);
      const about = (events: StoredEvent[], type: string, field: string, value: string) =>
        events.filter((e) => e.type === type && (e.data as Record<string, unknown>)[field] === value);
      const delegated = about(parent, 'WorkItemDelegated', 'delegation_id', d.delegationId);
      const received = about(child, 'WorkItemDelegationReceived', 'delegation_id', d.delegationId);
      const messageId = (delegated[0]?.data as { message_id?: string } | undefined)?.message_id ?? '';
      const message = about(child, 'MessageQueued', 'message_id', messageId);
      const completed = about(parent, 'WorkItemDelegationCompleted', 'delegation_id', d.delegationId);
      const reported = about(child, 'WorkItemDelegationReported', 'delegation_id', d.delegationId);
      const taskEnded = about(parent, 'TaskCompleted', 'task_id', d.delegationId);
      const results = about(parent, 'MessageQueued', 'task_id', d.delegationId);
      const facts: Array<[string, StoredEvent[]]> = [
        ['WorkItemDelegated', delegated],
        ['WorkItemDelegationReceived', received],
        ['delegation messages', message],
        ['WorkItemDelegationCompleted', completed],
        ['WorkItemDelegationReported', reported],
        ['TaskCompleted', taskEnded],
        ['task_result messages', results],
      ];
      for (const [what, events] of facts) {
        check.events += events.length;
        if (events.length !== 1)
          check.problems.push(`${d.delegationId}: ${events.length} ${what} (expected exactly one)`);
      }
      if (facts.some(([, events]) => events.length === 0)) check.lost += 1;
      if (facts.some(([, events]) => events.length > 1)) check.duplicated += 1;
      const summary = (completed[0]?.data as { result_summary?: string } | undefined)?.result_summary;
      if (completed.length === 1 && summary !== d.report) check.problems.push(`${d.delegationId}: result ${summary}`);
      const item = (results[0]?.data as { work_item_id?: string } | undefined)?.work_item_id;
      if (results.length === 1 && item !== d.item)
        check.problems.push(`${d.delegationId}: result on ${item}, not ${d.item}`);
    }
    // No delegation beyond the acknowledged ones (a spawn retried across a kill names the same one).
    for (const parent of new Set(delegations.map((d) => d.parent))) {
      const spawned = (await streamOf(parent)).filter((e) => e.type === 'WorkItemDelegated').length;
      const expected = delegations.filter((d) => d.parent === parent).length;
      if (spawned !== expected) check.problems.push(`${parent}: ${spawned} delegations, expected ${expected}`);
    }
  } finally {
    await store.close();
    await pool.end();
  }
  return check;
}
