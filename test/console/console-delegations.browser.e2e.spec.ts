import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app';
import { httpClient, projected } from '../support/http';
import { freshId } from '../support/postgres';
import { describeIf } from '../support/skip';
import { ensureConsoleBuilt } from './console-build';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--no-first-run',
];

// Issue 17: the agent page shows the agent's delegations both ways (children and parent) with their state.

describeIf(existsSync(CHROMIUM), 'console: delegations', 'chromium not installed', () => {
  const parent = freshId('dlg-parent');
  const child = `${parent}-child`;
  let app: TestApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureConsoleBuilt();
    app = await startTestApp({ tokens: `tok-admin=*;tok-ops=${parent}` });
    const ops = httpClient(app, 'tok-ops');
    expect((await httpClient(app, 'tok-admin')('POST', '/v1/agents', { agent_id: parent })).status).toBe(201);
    await ops('POST', `/v1/agents/${parent}/work-items`, { work_item_id: 'w-1', objective: 'Release' });
    const spawned = await ops('POST', `/v1/agents/${parent}/spawn`, {
      workspace_mode: 'private_child',
      agent_id: child,
      initial_message: 'Write the release notes',
      work_item_id: 'w-1',
    });
    expect(spawned.status).toBe(201);
    await projected(app);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.setDefaultTimeout(20_000);
    await page.goto(`${app.baseUrl}/console/`);
    await page.getByLabel('API token').fill('tok-ops');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists the child on the parent page and the parent on the child page, with their state', async () => {
    await page.goto(`${app.baseUrl}/console/#/agents/${parent}`);
    const toChild = page.locator('#delegations tr[data-direction="child"]');
    await toChild.waitFor();
    expect(await toChild.textContent()).toContain(child);
    expect(await toChild.textContent()).toContain('Write the release notes');
    expect(await toChild.textContent()).toContain('delegated');

    // The parent's token reaches its private child's page.
    await page.goto(`${app.baseUrl}/console/#/agents/${child}`);
    const fromParent = page.locator('#delegations tr[data-direction="parent"]');
    await fromParent.waitFor();
    expect(await fromParent.textContent()).toContain(parent);
    expect(await fromParent.textContent()).toContain('from parent');
    expect(await fromParent.textContent()).toContain('delegated');
  }, 60_000);
});
