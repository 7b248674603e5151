import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { agentStream } from '@app/core';
import { EVENT_STORE, type EventStore } from '@app/event-store';
import { eventually } from '@app/event-store/testing';
import { startTestApp, type TestApp } from '../support/app';
import { isolatedDatabaseUrl } from '../support/postgres';
import { describeIf } from '../support/skip';
import { ensureConsoleBuilt } from './console-build';

const CHROMIUM = '/usr/bin/chromium';

/** ADR 0015: the console says when a poison event parked an agent, and stops saying it once it is skipped. */
describeIf(existsSync(CHROMIUM), 'the console and a parked agent', 'chromium not installed', () => {
  let app: TestApp;
  let browser: Browser;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: {
        authorization: 'Bearer tok-admin',
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    ensureConsoleBuilt();
    app = await startTestApp({
      tokens: 'tok-admin=*',
      env: { DATABASE_URL: await isolatedDatabaseUrl('console_stall') },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows a banner naming the stalled position while an agent is parked', async () => {
    expect((await call('POST', '/v1/agents', { agent_id: 'stalled-a' })).status).toBe(201);
    const store = app.runtime.app.get<EventStore>(EVENT_STORE);
    const revision = await store.streamRevision(agentStream('stalled-a'));
    const { position } = await store.appendToStream(
      agentStream('stalled-a'),
      [{ id: randomUUID(), type: 'FromTheFuture', data: {}, metadata: {} }],
      revision!,
    );
    await eventually(
      'the agent to be parked',
      () => call('GET', '/health'),
      (r) => r.json.projection_lag?.stalled_at !== null,
      {
        timeoutMs: 5_000,
        intervalMs: 50,
      },
    );
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${app.baseUrl}/console/`);
    await page.getByLabel('API token').fill('tok-admin');
    await page.keyboard.press('Enter');
    const banner = page.locator('.projection-stalled');
    await banner.waitFor();
    expect(await banner.getAttribute('role')).toBe('alert');
    expect(await banner.getAttribute('data-stalled-at')).toBe(position.toString());
    expect(await banner.textContent()).toContain(
      `Read models stalled for 1 agent: read_models holds back its events from position ${position}`,
    );
    expect(
      (await call('POST', `/v1/admin/projections/read_models/dead-letters/${position}/skip`, { reason: 'test' }))
        .status,
    ).toBe(200);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    expect(await page.locator('.projection-stalled').count()).toBe(0);
    await page.close();
  });

  it("shows a parked agent's closure as failed, beside its posture, with the dead letter as evidence", async () => {
    expect((await call('POST', '/v1/agents', { agent_id: 'stalled-b' })).status).toBe(201);
    const store = app.runtime.app.get<EventStore>(EVENT_STORE);
    const { position } = await store.appendToStream(
      agentStream('stalled-b'),
      [{ id: randomUUID(), type: 'FromTheFuture', data: {}, metadata: {} }],
      (await store.streamRevision(agentStream('stalled-b')))!,
    );
    await eventually(
      'the agent to be parked',
      () => call('GET', '/v1/agents/stalled-b/state'),
      (r) => r.json.closure?.closure === 'failed',
      { timeoutMs: 5_000, intervalMs: 50 },
    );
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${app.baseUrl}/console/`);
    await page.getByLabel('API token').fill('tok-admin');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    await page.goto(`${app.baseUrl}/console/#/agents/stalled-b`);
    const closure = page.locator('.page-head .badge-closure');
    await closure.waitFor();
    expect(await closure.textContent()).toBe('closure: failed (runtime error)');
    expect(await closure.getAttribute('title')).toBe(`dead_letter:read_models:${position}:FromTheFuture`);
    await page.close();
  });
});
