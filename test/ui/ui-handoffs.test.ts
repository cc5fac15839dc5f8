/// <reference lib="dom" />
/**
 * Handoffs in baton ui, in a real Chromium (Debian's, driven by playwright-core): two real
 * `baton handoff` runs of the CLI (one printed, one starting a stand-in `claude` on PATH) from a
 * Codex session found in a temp CODEX_HOME, recorded in a real SQLite ledger; the ui server on
 * port 0 lists them, opens one on its text, and links them from the source session's page.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HandoffAuditData, type Ledger, openLedger } from '../../src/ledger/index.js';
import { startUiServer, type UiServer } from '../../src/ui/index.js';
import { runBaton, tempDir } from '../helpers/cli.js';
import { FAILED_CODEX_ID, writeFailedCodexRollout } from '../sessions/failed-codex-rollout.js';
import { storeEnv } from '../sessions/session-stores-helper.js';
import { describeWithBrowser, launchBrowser, screenshotPath } from './browser.js';

const SESSION = `codex-${FAILED_CODEX_ID}`;

describeWithBrowser('handoffs in baton ui (Chromium)', () => {
  let cleanup: () => Promise<void>;
  let ledger: Ledger;
  let ui: UiServer;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;

  beforeAll(async () => {
    const t = await tempDir('baton-ui-handoffs-');
    cleanup = t.cleanup;
    const workspace = path.join(t.dir, 'project');
    const home = path.join(t.dir, 'home');
    const bin = path.join(t.dir, 'bin');
    await mkdir(workspace, { recursive: true });
    await mkdir(bin, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: workspace });
    const env = storeEnv(home);
    await writeFailedCodexRollout(env.CODEX_HOME as string, workspace);
    // A stand-in `claude` that exits 0: the handoff without --print starts it.
    await writeFile(path.join(bin, 'claude'), '#!/bin/sh\nexit 0\n');
    await chmod(path.join(bin, 'claude'), 0o755);
    const printed = await runBaton(['handoff', '--from', 'codex', '--to', 'claude', '--budget', '1200', '--print'], {
      cwd: workspace,
      env,
    });
    expect(printed.code, printed.stderr).toBe(0);
    const started = await runBaton(['handoff', '--from', 'codex', '--to', 'claude'], {
      cwd: workspace,
      env: { ...env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
    });
    expect(started.code, started.stderr).toBe(0);
    ledger = await openLedger({ spec: env.BATON_LEDGER as string, create: false });
    ui = await startUiServer({ ledger, port: 0, workspace, pollMs: 100 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ui?.close();
    await ledger?.close();
    await cleanup?.();
  });

  async function handoffs(): Promise<Array<{ id: string; data: HandoffAuditData }>> {
    return (await ledger.listRecords<HandoffAuditData>('audit', { status: 'handoff' })).items;
  }

  it('lists each handoff: when, from which session and client, to which CLI, tokens and budget, printed or started', async () => {
    const records = await handoffs();
    expect(records).toHaveLength(2);
    await page.goto(ui.url);
    await page.keyboard.press('g');
    await page.keyboard.press('h');
    await page.waitForURL(/\/handoffs$/);
    expect(await page.locator('header nav a[aria-current="page"]').textContent()).toBe('Handoffs');
    const rows = page.locator('#handoffs tbody tr');
    expect(await rows.count()).toBe(2);
    // Newest first: the started one, then the printed one.
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent?.trim() ?? '')),
    );
    const [newest, oldest] = records;
    expect(cells[0]?.slice(1)).toEqual([`Codex CLI · ${SESSION}`, 'Claude Code', `${newest?.data.tokens} / 2500`, 'started']);
    expect(cells[1]?.slice(1)).toEqual([`Codex CLI · ${SESSION}`, 'Claude Code', `${oldest?.data.tokens} / 1200`, 'printed']);
    expect(oldest?.data.tokens).toBeLessThanOrEqual(1200);
    await page.screenshot({ path: screenshotPath('handoffs-light'), fullPage: true });
  });

  it('opens a handoff on the text the next CLI was given', async () => {
    const printed = (await handoffs())[1];
    await page.goto(`${ui.url}handoffs`);
    await page.click(`tr[data-handoff="${printed?.id}"] td:first-child a`);
    await page.waitForURL(new RegExp(`/handoffs/${printed?.id}$`));
    const text = (await page.locator('#handoff-text').textContent()) ?? '';
    expect(text.startsWith('--- Handoff from Codex CLI to Claude Code (Baton) ---')).toBe(true);
    expect(text).toContain('npm test');
    expect(text).toBe(printed?.data.text);
    expect(await page.locator('main h1').textContent()).toContain('printed');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: screenshotPath('handoff-dark'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
    // Its source session link opens the session.
    await page.click(`main .card a[href="/sessions/${SESSION}"]`);
    await page.waitForURL(new RegExp(`/sessions/${SESSION}$`));
    expect(await page.locator('main h1').textContent()).toContain('Codex CLI session');
  });

  it("links the handoffs from the source session's page", async () => {
    await page.goto(`${ui.url}sessions/${SESSION}`);
    const rows = page.locator('#session-handoffs tbody tr');
    expect(await rows.count()).toBe(2);
    const started = (await handoffs())[0];
    await page.click(`#session-handoffs tr[data-handoff="${started?.id}"] td:first-child a`);
    await page.waitForURL(new RegExp(`/handoffs/${started?.id}$`));
    expect(await page.locator('main h1').textContent()).toContain('started');
    expect(await page.locator('#handoff-text').textContent()).toContain('--- Handoff from Codex CLI to Claude Code (Baton) ---');
  });

  it('answers 404 for an unknown handoff, and for an audit record that is not a handoff', async () => {
    const other = await ledger.createRecord('audit', { status: 'refresh', data: { at: 1 } });
    for (const id of ['nope', other.id]) {
      const res = await fetch(`${ui.url}handoffs/${id}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('Handoff not found');
    }
  });
});
