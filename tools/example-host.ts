/**
 * `npm run example:host`: an agent driven end to end by AgentHost with a deterministic scripted
 * model. Starts the runtime in this process (embedded Postgres in a temporary directory, or
 * DATABASE_URL) unless RUNTIME_URL and RUNTIME_TOKEN name one; registers an agent, queues an
 * operator prompt, and runs it: the model plans a work item, picks it, updates its todos, waits on
 * a short timer (wait_for), then completes it with a report. Exits 0 once the item is completed,
 * 1 on a failed turn or error, 2 past the time limit (EXAMPLE_TIME_LIMIT_MS, default 120 s).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentHost, call, RuntimeClient, ScriptedModel, type HostEvent } from '@agent-runtime/client';
import { createRuntimeApp, loadConfig } from '@app/platform';
import { ApiModule } from '../apps/runtime/src/api.module';

const ITEM = 'release-notes';
const TIMER_MS = Number(process.env.EXAMPLE_TIMER_MS ?? 1_500);
const TIME_LIMIT_MS = Number(process.env.EXAMPLE_TIME_LIMIT_MS ?? 120_000);
const log = (line: string) => process.stdout.write(`[${(performance.now() / 1000).toFixed(1)}s] ${line}\n`);

type Runtime = { url: string; token: string; started: boolean; close(): Promise<void> };

/** RUNTIME_URL + RUNTIME_TOKEN, else the runtime in this process (the console is served with it). */
async function runtime(): Promise<Runtime> {
  const { RUNTIME_URL, RUNTIME_TOKEN } = process.env;
  if (RUNTIME_URL) {
    if (!RUNTIME_TOKEN) throw new Error('RUNTIME_URL is set without RUNTIME_TOKEN');
    return { url: RUNTIME_URL, token: RUNTIME_TOKEN, started: false, close: async () => undefined };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'example-host-'));
  const token = `example-${randomUUID()}`;
  log(
    process.env.DATABASE_URL ? 'starting the runtime (DATABASE_URL)...' : 'starting the runtime (embedded Postgres)...',
  );
  const app = await createRuntimeApp(
    loadConfig({
      ...process.env,
      PORT: process.env.PORT ?? '0',
      GRPC_PORT: process.env.GRPC_PORT ?? '0',
      HOST: '127.0.0.1',
      RUNTIME_DATA_DIR: dataDir,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      RUNTIME_API_TOKENS: `${token}=*`,
    }),
    { api: [ApiModule] },
  );
  const { httpUrl } = await app.listen();
  return {
    url: httpUrl,
    token,
    started: true,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The scripted model: two turns, the second after the timer fired. */
function scriptedModel(): ScriptedModel {
  const todos = (draft: string, review: string) => [
    { text: 'draft the notes', state: draft },
    { text: 'review them', state: review },
  ];
  return new ScriptedModel({
    turns: [
      [
        {
          text: 'Plan: draft the notes, let them rest, review and ship.',
          tool_calls: [
            call('create_work_item', {
              work_item_id: ITEM,
              objective: 'Release notes for v1.2',
              plan: '# Plan\n\n1. Draft the notes\n2. Let them rest\n3. Review and ship\n',
              todos: todos('pending', 'pending'),
            }),
          ],
        },
        { tool_calls: [call('pick_work_item', { work_item_id: ITEM, reason: 'the operator asked for it' })] },
        { tool_calls: [call('update_work_item', { work_item_id: ITEM, todos: todos('completed', 'in_progress') })] },
        {
          tool_calls: [
            call('wait_for', { wake: 'timer', reason: 'let the draft rest', work_item_id: ITEM, delay_ms: TIMER_MS }),
          ],
        },
        { text: 'The draft rests until the timer fires.' },
      ],
      [
        { tool_calls: [call('get_work_item', { work_item_id: ITEM })] },
        {
          tool_calls: [
            call('update_work_item', { work_item_id: ITEM, blocked_by: null, todos: todos('completed', 'completed') }),
          ],
        },
        { tool_calls: [call('pick_work_item', { work_item_id: ITEM, reason: 'the timer fired' })] },
        {
          tool_calls: [
            call('complete_work_item', {
              work_item_id: ITEM,
              report: 'Release notes for v1.2 drafted, reviewed after a rest, and shipped.',
            }),
          ],
        },
        { text: 'Done: the release notes are shipped.' },
      ],
    ],
  });
}

function describe(event: HostEvent): string | null {
  switch (event.type) {
    case 'turn_opened':
      return `turn opened ${event.turn_id}`;
    case 'round':
      return `  round ${event.index}${event.text ? `: ${event.text}` : ''}`;
    case 'tool_call':
      return `    ${event.name}(${JSON.stringify(event.arguments)})${event.is_error ? ` failed: ${JSON.stringify(event.result)}` : ''}`;
    case 'turn_ended':
      return `turn ended: ${event.terminal_kind ?? 'no terminal'} (${event.reason})`;
    case 'error':
      return `error (${event.stage}): ${event.error instanceof Error ? event.error.message : String(event.error)}`;
    default:
      return null;
  }
}

async function main(): Promise<number> {
  const target = await runtime();
  const client = new RuntimeClient({ url: target.url, token: target.token, headers: { connection: 'close' } });
  const agentId = process.env.EXAMPLE_AGENT_ID ?? `example-${randomUUID().slice(0, 8)}`;
  let host: AgentHost | null = null;
  try {
    if (target.started) log(`console: ${target.url}/console (token: ${target.token})`);
    await client.registerAgent({ agent_id: agentId });
    await client.enqueueMessage(agentId, {
      kind: 'operator_prompt',
      body: 'Write the release notes for v1.2, let them rest a moment, and report when they are shipped.',
    });
    log(`agent ${agentId}: operator prompt queued`);
    const model = scriptedModel();
    host = new AgentHost({ client, model, agents: [agentId], leaseTtlMs: 30_000, waitMs: 10_000 });
    const outcome = new Promise<number>((resolve) => {
      host!.on((event) => {
        const line = describe(event);
        if (line) log(line);
        if (event.type !== 'turn_ended') return;
        if (event.terminal_kind !== 'completed') return resolve(1);
        client.getWorkItem(agentId, ITEM).then(
          (item) => {
            if (item.state !== 'completed') return;
            log(`work item ${ITEM} completed; report: ${item.result_summary}`);
            resolve(0);
          },
          () => undefined,
        );
      });
    });
    host.start();
    const limit = new Promise<number>((resolve) => setTimeout(() => resolve(2), TIME_LIMIT_MS).unref());
    const code = await Promise.race([outcome, limit]);
    if (code === 2) log(`time limit: the item was not completed within ${TIME_LIMIT_MS} ms`);
    if (code === 0) model.assertDone();
    return code;
  } finally {
    await host?.stop({ turns: 'interrupt' });
    client.close();
    await target.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`example:host failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
