/// <reference lib="dom" />
/**
 * baton ui in a real Chromium (Debian's, driven by playwright-core) over a ledger written by a real
 * `baton run` of stand-in command agents (child processes) and a real `baton panel`. Screenshots
 * land in test-results/ui/ (light and dark) for a person to look at.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Dispatch, type Ledger, openLedger } from '../../src/ledger/index.js';
import { startUiServer, TASK_PAGE_SIZE, type UiServer } from '../../src/ui/index.js';
import { runBaton } from '../helpers/cli.js';
import { describeWithBrowser, launchBrowser, screenshotPath } from './browser.js';
import { runPlanIntoLedger, type RunLedger } from './fixture.js';
import { fillLargeLedger } from './large-ledger.js';

describeWithBrowser('baton ui in Chromium', () => {
  let run: RunLedger;
  let ledger: Ledger;
  let ui: UiServer;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;

  beforeAll(async () => {
    run = await runPlanIntoLedger({ panel: true });
    // Two saved snapshots with a change between them, through the real CLI.
    const refresh = (args: string[]) =>
      runBaton(['refresh', 'docs', '--ledger', run.spec, '--save', '--json', ...args], { cwd: run.workspace });
    expect((await refresh([])).code).toBe(0);
    const writer = await openLedger({ spec: run.spec });
    await writer.updateTask('never', { priority: 9 });
    await writer.close();
    expect((await refresh([])).code).toBe(0);
    ledger = await openLedger({ spec: run.spec, create: false });
    ui = await startUiServer({ ledger, port: 0, workspace: run.workspace, pollMs: 100 });
    browser = await launchBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.url.replace(/\/$/, '') });
    page = await browser.context.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ui?.close();
    await ledger?.close();
    await run?.cleanup();
  });

  async function shoot(name: string): Promise<void> {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: screenshotPath(`${name}-light`), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: screenshotPath(`${name}-dark`), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  async function dispatchesOf(taskId: string): Promise<Dispatch[]> {
    return (await ledger.listDispatches({ taskId, limit: 100 })).items;
  }

  it('lists tasks by status with counts, filters, searches and shows dependencies', async () => {
    await page.goto(ui.url);
    await expect.poll(() => page.locator('#live').textContent()).toBe('live');
    const counts = await ledger.countTasksByStatus();
    expect(await page.locator('a[data-status="completed"] .count').textContent()).toBe(String(counts.completed));
    expect(await page.locator('a[data-status="blocked"] .count').textContent()).toBe('1');
    expect(await page.locator('#tasks tbody tr').count()).toBe(3);
    expect(await page.locator('tr[data-task="notes"] td:nth-child(4) a').textContent()).toBe('docs');
    await shoot('tasks');

    await page.click('a[data-status="blocked"]');
    expect(await page.locator('#tasks tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-task')))).toEqual(['never']);

    // Keyboard: the skip link comes first and lands on <main>; the next Tab reaches the filters.
    await page.goto(ui.url);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toMatch(/^All\s+3$/);
    await page.screenshot({ path: screenshotPath('keyboard-focus-light') });
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    await page.keyboard.type('release');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=release/);
    expect(await page.locator('#tasks tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-task')))).toEqual(['notes']);
  });

  it('shows each try in order with the exact context the ledger says was injected, beside the previous try', async () => {
    await page.goto(`${ui.url}tasks/docs`);
    const ds = (await dispatchesOf('docs')).sort((a, b) => a.seq - b.seq);
    const shownOrder = await page.locator('article.try').evaluateAll((els) => els.map((e) => e.id));
    expect(shownOrder).toEqual(ds.map((d) => `try-${d.id}`));
    const injected = ds.filter((d) => d.injectedContext);
    expect(new Set(injected.map((d) => d.contextType))).toEqual(new Set(['circuit_breaker', 'retry']));
    for (const d of injected) {
      expect(await page.locator(`#ctx-${d.id}`).textContent()).toBe(d.injectedContext);
      expect(await page.locator(`#try-${d.id} .seam h4`).first().textContent()).toBe('What the previous try did');
    }
    // The full prompt: exactly what the agent read, injected block first.
    const retry = injected.find((d) => d.contextType === 'retry') as Dispatch;
    await page.click(`#prompt-${retry.id} summary`);
    const prompt = await page.locator(`#prompt-text-${retry.id}`).textContent();
    expect(prompt).toBe(retry.promptPreview);
    expect(prompt?.startsWith(retry.injectedContext ?? '?')).toBe(true);
    // What the retry reacted to: the failed try's validation error is shown beside it.
    expect(await page.locator(`#try-${retry.id} .seam .errors`).textContent()).toContain('check failed: test -f guide.md');
    await page.click(`#prompt-${retry.id} summary`);
    await shoot('task-timeline');

    await page.goto(`${ui.url}tasks/notes`);
    const helper = (await dispatchesOf('notes')).find((d) => d.mode === 'helper') as Dispatch;
    expect(helper.contextType).toBe('helper');
    expect(await page.locator(`#ctx-${helper.id}`).textContent()).toBe(helper.injectedContext);
    expect(await page.locator(`#try-${helper.id}`).textContent()).toContain('test -f notes.md');
    expect(await page.locator('#depends-on').textContent()).toContain('docs');
  });

  it("shows each provider's breaker with its reason and a live countdown, and the outcome mix", async () => {
    await page.goto(`${ui.url}providers`);
    const breaker = (await ledger.getBreaker('limited'))!;
    expect(breaker.state).toBe('open');
    const row = page.locator('#breakers tr[data-provider="limited"]');
    expect(await row.locator('.badge').textContent()).toBe('open');
    expect(await row.textContent()).toContain(breaker.reason ?? '?');
    const first = await row.locator('[data-until]').textContent();
    expect(first).toMatch(/^(\d+ min )?\d+ s$/);
    await expect.poll(() => row.locator('[data-until]').textContent(), { timeout: 3000 }).not.toBe(first);
    expect(await page.locator('#outcome-mix tr[data-provider="fixer"]').textContent()).toMatch(/validation failed/);
    await shoot('providers');
  });

  it('shows the refresh narrative and continuation prompt with working copy buttons, and a snapshot delta', async () => {
    await page.goto(`${ui.url}recovery?task=docs`);
    const narrative = (await page.locator('#narrative').textContent()) ?? '';
    expect(narrative).toContain('docs');
    const continuation = (await page.locator('#continuation').textContent()) ?? '';
    expect(continuation.length).toBeGreaterThan(40);
    await page.click('button[data-copy="continuation"]');
    await expect.poll(() => page.locator('button[data-copy="continuation"]').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(continuation);
    expect(await page.locator('#snapshots tbody tr').count()).toBe(2);
    await page.click('form[aria-label="Compare two snapshots"] button');
    await page.waitForSelector('#delta');
    expect(await page.locator('#delta').textContent()).toContain('task:never');
    await shoot('recovery');
  });

  it("shows a panel's question, each agent's answer and the context each received", async () => {
    await page.goto(`${ui.url}panels`);
    await page.click('#panels a');
    await page.waitForSelector('#question');
    expect(await page.locator('#question').textContent()).toBe('How do I volley?');
    const agents = page.locator('article.try');
    expect(await agents.count()).toBe(2);
    expect(await agents.nth(0).textContent()).toContain('technique says: keep the wrist firm.');
    expect(await agents.nth(1).locator('pre').first().textContent()).toContain('technique says');
    await shoot('panel');
  });

  it('says there is no job queue on a SQLite ledger', async () => {
    await page.goto(`${ui.url}queue`);
    expect(await page.locator('#queue-empty').textContent()).toContain('No job queue is connected');
    await shoot('queue-none');
  });

  it('shows a new dispatch live while a real baton run writes, without reloading the page', async () => {
    await page.goto(ui.url);
    await expect.poll(() => page.locator('#live').textContent()).toBe('live');
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 42;
    });
    await writeFile(
      path.join(run.root, 'live.yaml'),
      'tasks:\n  - id: live\n    title: Arrives while the page is open\n    instructions: Write the draft.\n',
    );
    const running = runBaton(
      [
        'run',
        path.join(run.root, 'live.yaml'),
        '--config',
        path.join(run.root, 'baton.config.json'),
        '--ledger',
        run.spec,
        '--providers',
        'fixer',
        '--json',
      ],
      { cwd: run.workspace },
    );
    await page.waitForSelector('#recent-dispatches li:has-text("live")', { timeout: 10_000 });
    expect((await running).code).toBe(0);
    await expect
      .poll(() => page.locator('#tasks tbody tr[data-task="live"] td:nth-child(2) .badge').textContent(), { timeout: 5000 })
      .toBe('completed');
    expect(await page.locator('a[aria-current="true"] .count').first().textContent()).toBe('4');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect(await page.locator('#live').textContent()).toMatch(/^updated/);
  });

  it("renders a 10,000-task ledger's first page (sanity bound; timing lives in npm run bench -- ui)", async () => {
    const big = await openLedger({ spec: `sqlite:${path.join(run.root, 'big.db')}` });
    await fillLargeLedger(big, { tasks: 10_000, dispatches: 20_000 });
    const bigUi = await startUiServer({ ledger: big, port: 0 });
    try {
      const started = performance.now();
      await page.goto(bigUi.url);
      await page.waitForSelector('#tasks tbody tr');
      const elapsed = performance.now() - started;
      expect(await page.locator('#tasks tbody tr').count()).toBe(TASK_PAGE_SIZE);
      expect(await page.locator('a[aria-current="true"] .count').first().textContent()).toBe('10000');
      expect(elapsed).toBeLessThan(15_000);
      await page.click('#next-page');
      await page.waitForURL(/cursor=/);
      expect(await page.locator('#tasks tbody tr').first().getAttribute('data-task')).toBe(`task-000${TASK_PAGE_SIZE}`);
      await shoot('tasks-10000');
    } finally {
      await bigUi.close();
      await big.close();
    }
  }, 60_000);
});
