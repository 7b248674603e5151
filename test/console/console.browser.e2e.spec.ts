import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { SCHEDULER_WORKER, type SchedulerWorker } from '@app/application';
import { startTestApp, type TestApp } from '../support/app';
import { httpClient, projected } from '../support/http';
import { freshId } from '../support/postgres';
import { describeIf } from '../support/skip';
import { ensureConsoleBuilt } from './console-build';

/** Debian's chromium (TOOLCHAIN.md): .ci/run installs it; nothing ever downloads a browser. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];
const SHOTS = join(__dirname, 'screenshots');
const STEP_MS = 60_000;

type Focused = { tag: string; text: string; href: string | null; id: string; outline: string };

/** What has the keyboard focus, and whether it shows (a focus ring that is not `none`). */
const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    const el = doc.activeElement;
    const style = (globalThis as any).getComputedStyle(el);
    return {
      tag: el.tagName,
      text: (el.textContent ?? '').trim(),
      href: el.getAttribute('href'),
      id: el.id,
      outline: style.outlineStyle,
    };
  });

/** Presses Tab (or Shift+Tab) until the focus is on what `wanted` accepts: the keyboard is the only way around. */
async function tabTo(
  page: Page,
  wanted: (el: Focused) => boolean,
  options: { back?: boolean; max?: number } = {},
): Promise<Focused> {
  const seen: string[] = [];
  for (let i = 0; i < (options.max ?? 80); i++) {
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    const el = await focused(page);
    if (wanted(el)) return el;
    seen.push(`${el.tag}:${el.text.slice(0, 30)}`);
  }
  throw new Error(`the keyboard never reached the element; focus went through ${seen.join(' | ')}`);
}

describeIf(existsSync(CHROMIUM), 'console browser tests', 'chromium not installed', () => {
  const agentA = freshId('ops-a');
  const agentB = freshId('ops-b');
  const errors: string[] = [];
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let ops: ReturnType<typeof httpClient>;
  let worker: SchedulerWorker;

  const post = async (path: string, body: object) => {
    const reply = await ops('POST', path, body);
    if (reply.status >= 300) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  /** Lets the scheduler worker act on both agents until it writes nothing more, then waits for the read models. */
  const settled = async () => {
    for (let pass = 0; pass < 20; pass++) {
      const before = (await ops('GET', `/v1/agents/${agentA}/events?limit=1000`)).body.items.length;
      worker.poke(agentA);
      worker.poke(agentB);
      await worker.idle();
      if ((await ops('GET', `/v1/agents/${agentA}/events?limit=1000`)).body.items.length === before) break;
    }
    await projected(app);
  };
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    const buildMs = ensureConsoleBuilt();
    process.stdout.write(`console build: ${buildMs ? `${buildMs} ms` : 'fresh already'}\n`);
    mkdirSync(SHOTS, { recursive: true });
    app = await startTestApp({ scheduler: true, tokens: `tok-admin=*;tok-ops=${agentA}|${agentB}` });
    ops = httpClient(app, 'tok-ops');
    worker = app.runtime.app.get<SchedulerWorker>(SCHEDULER_WORKER);
    await seed();
    await settled();
    await finishOneItemInATurn();
    await settled();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.setDefaultTimeout(20_000);
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** Agent A: a current item with todos and a plan, a triggered blocked item, an operator question, queued and done work. Agent B: a plan that needs input. */
  async function seed(): Promise<void> {
    const a = `/v1/agents/${agentA}`;
    await post('/v1/agents', { agent_id: agentA });
    await post('/v1/agents', { agent_id: agentB });
    await post(`${a}/work-items`, { work_item_id: 'w-ask', objective: 'Choose the deploy region' });
    await post(`${a}/work-items/w-ask/wait`, {
      wake: 'operator_input',
      reason: 'Which region should the release go to?',
    });
    await post(`/v1/agents/${agentB}/work-items`, {
      work_item_id: 'w-input',
      objective: 'Plan the data migration',
      plan_status: 'needs_input',
    });
    await post(`${a}/work-items`, {
      work_item_id: 'w-login',
      objective: 'Fix the login bug',
      plan: '# Plan\n\n1. Reproduce with an expired session\n2. Refresh the cookie\n3. Regression test',
      todo_list: [
        { text: 'reproduce', state: 'completed' },
        { text: 'refresh the session cookie', state: 'in_progress' },
        { text: 'regression test', state: 'pending' },
      ],
    });
    await post(`${a}/work-items/w-login/pick`, { reason: 'the release waits on it' });
    await post(`${a}/work-items`, { work_item_id: 'w-notes', objective: 'Write the release notes' });
    await post(`${a}/work-items`, { work_item_id: 'w-done', objective: 'Tag the release' });
    await post(`${a}/work-items`, { work_item_id: 'w-ci', objective: 'Ship the tagged build' });
    const wait = await post(`${a}/work-items/w-ci/wait`, {
      wake: 'external',
      reason: 'the release tag from CI',
      resource: 'ci/release',
      source: 'ci',
    });
    await ops('PATCH', `${a}/work-items/w-ci`, { blocked_by: 'CI has not tagged the release' });
    await post(`${a}/waiting-intents/${wait.waiting_intent.id}/trigger`, { source: 'ci', payload: { tag: 'v1.2.0' } });
    await post(`${a}/timers`, { duration_ms: 3_600_000, resume_text: 'Check on QA', work_item_id: 'w-notes' });
    await post(`${a}/tasks`, {
      task_id: 't-build',
      kind: 'ci_build',
      wait_policy: 'background',
      work_item_id: 'w-ci',
      summary: 'nightly build',
    });
  }

  /** The host's side of one turn that completes w-done (focused for it) with a report promoted from its round; w-login has the focus again after. */
  async function finishOneItemInATurn(): Promise<void> {
    const a = `/v1/agents/${agentA}`;
    const activation = await post(`${a}/activations`, {});
    const turn = activation.turn?.turn_id;
    if (!turn) throw new Error(`no turn opened: ${JSON.stringify(activation.decision)}`);
    await post(`${a}/work-items/w-done/pick`, { reason: 'a quick one first' });
    await post(`${a}/turns/${turn}/rounds`, {
      round_id: 'r-1',
      text: 'Tagged v1.2.0 and pushed the tag.',
      tool_calls: [{ tool_call_id: 'tc-1', name: 'complete_work_item' }],
    });
    await post(`${a}/work-items/w-done/complete`, { round_id: 'r-1' });
    await post(`${a}/turns/${turn}/rounds/r-1/close`, {});
    await post(`${a}/turns/${turn}/terminal`, {
      terminal_kind: 'completed',
      last_assistant_message: 'Tagged the release.',
    });
    await post(`${a}/work-items/w-login/pick`, { reason: 'back to the bug' });
  }

  it(
    'signs in with a pasted token, from the keyboard alone, and lists the agents',
    async () => {
      await page.goto(`${app.baseUrl}/console/`);
      await page.getByLabel('API token').waitFor();
      expect((await focused(page)).id).toBe('token');
      await page.keyboard.type('not-a-token');
      await page.keyboard.press('Enter');
      await page.getByRole('alert').filter({ hasText: 'refused' }).waitFor();
      // The refused token's 401 is the one error the browser may log: it is what the operator was told about.
      expect(errors).toEqual([
        'console: Failed to load resource: the server responded with a status of 401 (Unauthorized)',
      ]);
      errors.length = 0;
      await page.keyboard.press('Control+A');
      await page.keyboard.type('tok-ops');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
      expect(await page.evaluate(() => (globalThis as any).sessionStorage.length)).toBe(1);
      expect(page.url()).not.toContain('tok-ops');
      const rows = page.locator('table.agents tbody tr');
      await rows.nth(1).waitFor();
      expect(await rows.evaluateAll((trs) => trs.map((tr: any) => tr.dataset.agent))).toEqual([agentA, agentB].sort());
      const rowA = page.locator(`tr[data-agent="${agentA}"]`);
      await expect(rowA.textContent()).resolves.toContain('Fix the login bug');
      // The first Tab lands on the skip link, which takes the focus to the content.
      const skip = await tabTo(page, (el) => el.tag === 'A', { max: 1 });
      expect(skip.text).toBe('Skip to content');
      expect(skip.outline).not.toBe('none');
      await page.keyboard.press('Enter');
      expect((await focused(page)).id).toBe('main');
      // The list follows GET /v1/changes (it polls only while that stream is not live): a command
      // on an agent shows up in its row without a reload.
      await page.locator('[data-live="live"]').waitFor();
      const rowB = page.locator(`tr[data-agent="${agentB}"]`);
      expect(await rowB.textContent()).not.toContain('Refresh the docs');
      await post(`/v1/agents/${agentB}/work-items`, { work_item_id: 'w-docs', objective: 'Refresh the docs' });
      await post(`/v1/agents/${agentB}/work-items/w-docs/pick`, { reason: 'quick one' });
      await rowB.getByText('Refresh the docs').waitFor({ timeout: 4_000 });
      await shot('01-agents');
    },
    STEP_MS,
  );

  it(
    'opens an agent with the keyboard: why it is (not) working, its focus, board, waits, tasks, timers and decisions',
    async () => {
      const link = await tabTo(page, (el) => el.tag === 'A' && el.text === agentA);
      expect(link.outline).not.toBe('none');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: `Agent ${agentA}` }).waitFor();
      expect((await focused(page)).tag).toBe('H1');
      await page.locator('[data-live="live"]').waitFor();
      const now = page.getByRole('region', { name: 'What it would do now, and why' });
      await now.locator('.decision .reason').waitFor();
      const current = page.getByRole('region', { name: 'Current work item' });
      await current.getByText('Fix the login bug').waitFor();
      expect(await current.locator('[aria-current="step"]').textContent()).toContain('refresh the session cookie');
      await current.getByText('Reproduce with an expired session').waitFor();
      const columns = page.locator('.board .column');
      expect(await columns.evaluateAll((cs) => cs.map((c: any) => c.dataset.class))).toEqual([
        'current_runnable',
        'triggered_blocked',
        'queued_runnable',
        'waiting_for_operator',
        'blocked',
        'completed_recent',
      ]);
      await page.locator('[data-class="triggered_blocked"]').getByText('triggered 1× by ci').waitFor();
      await page
        .locator('[data-class="waiting_for_operator"]')
        .getByText('Which region should the release go to?')
        .waitFor();
      await page.locator('[data-class="completed_recent"]').getByText('Tagged v1.2.0 and pushed the tag.').waitFor();
      const waits = page.getByRole('region', { name: 'Waiting intents' });
      await waits.getByText('the release tag from CI').waitFor();
      await page.getByRole('region', { name: 'Tasks' }).getByText('nightly build').waitFor();
      await page.getByRole('region', { name: 'Timers' }).getByText('Check on QA').waitFor();
      await page.locator('.timeline > li').first().waitFor();
      await shot('02-agent');
    },
    STEP_MS,
  );

  it(
    'shows a decision the moment the scheduler records it after a command',
    async () => {
      const before = await page.locator('.timeline > li').count();
      await post(`/v1/agents/${agentA}/control`, { action: 'pause' });
      const fresh = page.locator('.timeline > li.fresh', { hasText: 'paused' });
      await fresh.waitFor({ timeout: 15_000 });
      expect(await page.locator('.timeline > li').count()).toBeGreaterThan(before);
      await expect(fresh.textContent()).resolves.toContain('Noop');
      await page.locator('[role="status"][aria-live="polite"]', { hasText: 'New decision: Noop, paused' }).waitFor();
      await page.locator('.page-head .badge', { hasText: 'paused' }).waitFor();
      await shot('03-live-decision');
    },
    STEP_MS,
  );

  it(
    'opens a work item with the keyboard: its history with who caused each event, and its plan',
    async () => {
      await tabTo(page, (el) => el.tag === 'A' && el.text === 'Fix the login bug');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Fix the login bug' }).waitFor();
      const history = page.getByRole('region', { name: 'History' });
      await history.locator('tr[data-type="WorkItemCreated"]').waitFor();
      await history.locator('tr[data-type="WorkItemPicked"]').first().waitFor();
      expect(await history.locator('tr[data-type="WorkItemCreated"] td').nth(3).textContent()).toContain('token-2');
      // The scheduler's own writes about the item name it as their cause.
      await history.locator('tbody td:nth-child(4)', { hasText: 'scheduler' }).first().waitFor();
      await page.getByRole('region', { name: 'Plan' }).getByText('Regression test').waitFor();
      // Why (not) next: the paused agent holds the ladder, and resuming it would help.
      const why = page.getByRole('region', { name: 'Why (not) next' });
      await why.locator('.badge', { hasText: 'held' }).waitFor();
      await why.getByText('AgentResumed').waitFor();
      await shot('04-work-item');
    },
    STEP_MS,
  );

  it(
    'opens the attention view with the keyboard: every item waiting for an operator, oldest first',
    async () => {
      expect((await focused(page)).tag).toBe('H1');
      await tabTo(page, (el) => el.tag === 'A' && el.text === 'Attention', { back: true, max: 10 });
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Needs attention' }).waitFor();
      const rows = page.locator('table.attention tbody tr');
      await rows.nth(1).waitFor();
      expect(await rows.evaluateAll((trs) => trs.map((tr: any) => tr.dataset.item))).toEqual(['w-ask', 'w-input']);
      await rows.first().getByText('Which region should the release go to?').waitFor();
      await rows.nth(1).getByText('The plan needs input.').waitFor();
      await page.locator('[data-live="live"]').waitFor();
      await ops('PATCH', `/v1/agents/${agentB}/work-items/w-docs`, { plan_status: 'needs_input' });
      await rows.nth(2).waitFor({ timeout: 4_000 });
      expect(await rows.evaluateAll((trs) => trs.map((tr: any) => tr.dataset.item))).toEqual([
        'w-ask',
        'w-input',
        'w-docs',
      ]);
      await shot('05-attention');
    },
    STEP_MS,
  );

  it(
    'signs out, forgetting the token, and logged no console or page error on the way',
    async () => {
      await tabTo(page, (el) => el.tag === 'BUTTON' && el.text === 'Sign out', { back: true, max: 10 });
      await page.keyboard.press('Enter');
      await page.getByLabel('API token').waitFor();
      expect(await page.evaluate(() => (globalThis as any).sessionStorage.length)).toBe(0);
      expect(errors).toEqual([]);
    },
    STEP_MS,
  );
});
