import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { eventually } from '@app/event-store/testing';
import { startTestApp, type TestApp } from '../support/app';
import { describeIf } from '../support/skip';
import { ensureConsoleBuilt } from './console-build';

const CHROMIUM = '/usr/bin/chromium';

/**
 * ADR 0036 in the console's attention view: a model turn the scheduler decided and no agent host
 * took says "Waiting for an agent host" (the delay set to 0 here), beside the other stranded work.
 */
describeIf(existsSync(CHROMIUM), 'the console and stranded work', 'chromium not installed', () => {
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
      scheduler: true,
      env: { STRANDED_HOST_AFTER_MS: '0' },
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

  it('lists a decided model turn that no host activated as waiting for an agent host', async () => {
    expect((await call('POST', '/v1/agents', { agent_id: 'hostless' })).status).toBe(201);
    const prompt = { kind: 'operator_prompt', body: 'Summarise the incident' };
    expect((await call('POST', '/v1/agents/hostless/messages', prompt)).status).toBeLessThan(300);
    const waiting = await eventually(
      'the scheduler to decide the model turn',
      () => call('GET', '/v1/stranded?kind=model_turn_waiting_for_host'),
      (r) => r.json.total === 1,
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(waiting.json.items[0]).toMatchObject({
      agent_id: 'hostless',
      evidence: expect.arrayContaining(['decision:StartModelTurn']),
    });
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${app.baseUrl}/console/`);
    await page.getByLabel('API token').fill('tok-admin');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    await page.goto(`${app.baseUrl}/console/#/attention`);
    await page.getByRole('heading', { level: 2, name: 'Stranded work' }).waitFor();
    const row = page.locator('table.stranded tbody tr[data-kind="model_turn_waiting_for_host"]');
    await row.waitFor();
    expect(await row.textContent()).toContain('Waiting for an agent host');
    expect(await row.textContent()).toContain(`message ${waiting.json.items[0].subject.message_id}`);
    await page.close();
  });
});
