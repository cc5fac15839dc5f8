import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { Queue, Worker } from 'bullmq';
import { afterEach, expect, it } from 'vitest';
import { runUi } from '../../src/cli/commands/ui/action.js';
import { openQueuePanel } from '../../src/cli/commands/ui/queue-panel.js';
import { MemoryLedger } from '../../src/ledger/index.js';
import { QUEUE_NAME, queueConnection, queuePrefix } from '../../src/queue/index.js';
import { startUiServer } from '../../src/ui/index.js';
import { describeWithRedis, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';
import { describeWithBrowser, launchBrowser, screenshotPath } from './browser.js';

const TOKEN = 'queue-view-token';
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/**
 * A real BullMQ queue in a fresh namespace: 2 jobs completed by a live worker (concurrency 1), one
 * it holds active, and 3 waiting behind it.
 */
async function arrangeQueue(namespace: string): Promise<{ workerName: string; queue: Queue }> {
  const connection = queueConnection(REDIS_TEST_URL);
  const prefix = queuePrefix(namespace);
  const queue = new Queue(QUEUE_NAME, { connection, prefix });
  const workerName = `ui-test-worker-${process.pid}`;
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Built the way src/queue/start-worker.ts builds `baton worker`'s: named, so the queue lists it live.
  const worker = new Worker(QUEUE_NAME, async (job) => (job.data.taskId === 'hold' ? held : undefined), {
    connection: queueConnection(REDIS_TEST_URL),
    prefix,
    name: workerName,
    concurrency: 1,
  });
  cleanups.push(async () => {
    release();
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    connection.disconnect();
  });
  await queue.add('task', { taskId: 'done-1' });
  await queue.add('task', { taskId: 'done-2' });
  await expect.poll(() => queue.getCompletedCount(), { timeout: 15_000 }).toBe(2);
  await queue.add('task', { taskId: 'hold' });
  await expect.poll(() => queue.getActiveCount(), { timeout: 15_000 }).toBe(1);
  for (const id of ['w-1', 'w-2', 'w-3']) await queue.add('task', { taskId: id });
  return { workerName, queue };
}

async function startBatonUi(namespace: string): Promise<string> {
  let out = '';
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const io = {
    stdout: (s: string) => {
      out += s;
    },
    stderr: () => undefined,
    cwd: process.cwd(),
    env: { BATON_NAMESPACE: namespace },
    isTTY: false,
  };
  const serving = runUi(io, { ledger: REDIS_TEST_URL, port: '0', token: TOKEN, json: true }, stopped);
  cleanups.push(async () => {
    stop();
    await serving;
  });
  await expect.poll(() => out, { timeout: 15_000 }).toContain('"url"');
  return (JSON.parse(out) as { url: string }).url;
}

function rowCount(text: string, state: string): number | undefined {
  const match = new RegExp(`<th scope="row">${state}</th>\\s*<td class="num">(\\d+)</td>`).exec(text);
  return match ? Number(match[1]) : undefined;
}

await describeWithRedis('baton ui: the Queue view over a real BullMQ queue', () => {
  it('shows the counts and the live worker that `baton status` reads, behind the token', async () => {
    const namespace = uniqueNamespace('uiqueue');
    const { workerName } = await arrangeQueue(namespace);
    const url = await startBatonUi(namespace);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const page = await (await fetch(`${url}queue`, { headers: auth })).text();
    expect(rowCount(page, 'waiting')).toBe(3);
    expect(rowCount(page, 'completed')).toBe(2);
    expect(rowCount(page, 'active')).toBe(1);
    expect(rowCount(page, 'failed')).toBe(0);
    expect(rowCount(page, 'stalled')).toBe(0);
    expect(page).toContain(`<code>${workerName}</code>`);
    expect(page).toContain('id="queue-dashboard-link"');

    // The mounted dashboard: token-checked, read-only (bull-board's readOnlyMode, and only GET/HEAD pass).
    expect((await fetch(`${url}queue/dashboard/`)).status).toBe(401);
    const dashboard = await fetch(`${url}queue/dashboard/`, { headers: auth });
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await dashboard.text()).toContain('__UI_CONFIG__');
    const api = (await (
      await fetch(`${url}queue/dashboard/api/queues?activeQueue=${QUEUE_NAME}&status=waiting`, { headers: auth })
    ).json()) as {
      queues: Array<{ name: string; readOnlyMode: boolean; counts: Record<string, number> }>;
    };
    expect(api.queues[0]).toMatchObject({ name: QUEUE_NAME, readOnlyMode: true });
    expect(api.queues[0]?.counts.waiting).toBe(3);
    const retry = await fetch(`${url}queue/dashboard/api/queues/${QUEUE_NAME}/retry/failed`, { method: 'PUT', headers: auth });
    expect(retry.status).toBe(405);
  });

  it('says which packages to install when bull-board is absent, and serves no dashboard', async () => {
    const namespace = uniqueNamespace('uiqueue-absent');
    await arrangeQueue(namespace);
    // The only stand-in here: the import resolves a package name that is really not installed,
    // as a project without the optional @bull-board packages would.
    const opened = await openQueuePanel(REDIS_TEST_URL, namespace, (name) => import(`${name}-not-installed`));
    if (!opened) throw new Error('a Redis ledger gives a queue panel');
    cleanups.push(opened.close);
    const ui = await startUiServer({ ledger: new MemoryLedger(), port: 0, queue: opened.panel });
    cleanups.push(() => ui.close());
    const page = await (await fetch(`${ui.url}queue`)).text();
    expect(page).toContain('id="queue-dashboard-hint"');
    expect(page).toContain('npm install @bull-board/api @bull-board/express');
    expect(page).not.toContain('id="queue-dashboard-link"');
    expect(rowCount(page, 'waiting')).toBe(3);
    expect((await fetch(`${ui.url}queue/dashboard/`)).status).toBe(404);
  });

  it('keeps the counts and names the cause when bull-board is installed but fails to load', async () => {
    const namespace = uniqueNamespace('uiqueue-broken');
    await arrangeQueue(namespace);
    // Stand-in for a broken or incompatible install: the adapter's import rejects.
    const opened = await openQueuePanel(REDIS_TEST_URL, namespace, (name) =>
      name === '@bull-board/express' ? Promise.reject(new Error('incompatible adapter')) : import(name),
    );
    if (!opened) throw new Error('a Redis ledger gives a queue panel');
    cleanups.push(opened.close);
    expect(opened.panel.handle).toBeUndefined();
    expect(opened.panel.dashboardHint).toContain('could not be loaded: incompatible adapter');
    expect((await opened.panel.summary?.())?.counts.waiting).toBe(3);
  });

  it('gives no queue for a non-Redis ledger', async () => {
    expect(await openQueuePanel('sqlite:x.db', 'default')).toBeUndefined();
  });
});

await describeWithRedis('baton ui: the Queue view in a browser', () => {
  describeWithBrowser('chromium', () => {
    it('shows counts and the worker, opens the read-only dashboard, in light and dark', async () => {
      const namespace = uniqueNamespace('uiqueue-browser');
      const { workerName, queue } = await arrangeQueue(namespace);
      const url = await startBatonUi(namespace);
      const browser = await launchBrowser();
      cleanups.push(browser.close);
      const page = await browser.context.newPage();
      const blocked: string[] = [];
      page.on('console', (msg) => {
        if (/Content Security Policy/i.test(msg.text())) blocked.push(msg.text());
      });
      await page.goto(`${url}queue?token=${TOKEN}`);
      const counts = page.locator('#queue-counts');
      await expect.poll(() => counts.locator('tr', { hasText: 'waiting' }).locator('td').textContent()).toBe('3');
      expect(await counts.locator('tr', { hasText: 'completed' }).locator('td').textContent()).toBe('2');
      expect(await page.locator('#queue-workers').textContent()).toContain(workerName);
      await page.screenshot({ path: screenshotPath('queue-redis-light'), fullPage: true });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: screenshotPath('queue-redis-dark'), fullPage: true });

      // Live: a job enqueued (no ledger write) shows without a reload, through the page's event stream.
      await page.evaluate(() => {
        (window as unknown as { notReloaded: boolean }).notReloaded = true;
      });
      await queue.add('task', { taskId: 'w-4' });
      await expect.poll(() => counts.locator('tr', { hasText: 'waiting' }).locator('td').textContent(), { timeout: 10_000 }).toBe('4');
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

      await page.click('#queue-dashboard-link');
      await page.waitForURL(/\/queue\/dashboard\//);
      // bull-board's own React app renders the queue (its scripts come from this server: CSP script-src 'self').
      await page.getByText(QUEUE_NAME).first().click({ timeout: 20_000 });
      await page.waitForURL(new RegExp(`/queue/dashboard/queue/${QUEUE_NAME}`));
      await page
        .getByText(/waiting/i)
        .first()
        .waitFor({ timeout: 20_000 });
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: screenshotPath('queue-dashboard'), fullPage: false });
      // Only the splash's inline styles are refused (style-src 'self'); no script is.
      expect(blocked.filter((m) => /script-src/.test(m))).toEqual([]);
      if (process.env.BATON_UPDATE_DOC_IMAGES) {
        const images = path.resolve(__dirname, '../../docs/images');
        await copyFile(screenshotPath('queue-redis-dark'), path.join(images, 'ui-queue-dark.png'));
        await copyFile(screenshotPath('queue-dashboard'), path.join(images, 'ui-queue-dashboard.png'));
      }
    });
  });
});
