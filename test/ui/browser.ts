import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { describe, it } from 'vitest';

/** Debian's chromium, installed by .ci/setup-browser.sh; playwright-core downloads no browser. */
export const CHROMIUM = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve(__dirname, '../../test-results/ui');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * `describe` for tests that drive the real browser: skipped with a visible message only when
 * chromium is missing and CI is not set; in CI a missing browser is a failure.
 */
export function describeWithBrowser(name: string, body: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(name, body);
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      it('needs chromium (run .ci/setup-browser.sh)', () => {
        throw new Error(`${CHROMIUM} is missing and CI is set: .ci/setup-browser.sh installs it`);
      });
    });
    return;
  }
  console.warn(`${CHROMIUM} not found: skipping the browser tests of baton ui (apt-get install chromium, or .ci/setup-browser.sh)`);
  describe.skip(name, body);
}

/** Launches chromium headless on a fresh user-data-dir; close() removes the profile. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = await mkdtemp(path.join(tmpdir(), 'baton-ui-chromium-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1360, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export function screenshotPath(name: string): string {
  return path.join(SCREENSHOTS, `${name}.png`);
}
