/**
 * `npm run bench -- ui [--backends sqlite,redis] [--tasks N] [--dispatches N] [--samples N]`:
 * fills a ledger with 10,000 tasks and 100,000 dispatches (bulk, through importLines), serves it
 * with `baton ui`, and times each view over HTTP (server render, p50/p95) and the task list's
 * first page in Debian's chromium (navigation until the rows are on screen) when it is installed.
 * Target: the first page renders in under 1 s. Writes bench/results/ui.json.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '../src/errors/index.js';
import { type Ledger, openLedger } from '../src/ledger/index.js';
import { startUiServer } from '../src/ui/index.js';
import { fillLargeLedger } from '../test/ui/large-ledger.js';

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'ui.json');
const REDIS_URL = 'redis://127.0.0.1:6379/15';
const CHROMIUM = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
const TARGET_FIRST_PAGE_MS = 1000;

interface Options {
  backends: string[];
  tasks: number;
  dispatches: number;
  samples: number;
}

export default async function bench(args: string[]): Promise<void> {
  const options = parseArgs(args);
  const results: Record<string, unknown> = await readFile(RESULTS, 'utf8')
    .then((text) => JSON.parse(text) as Record<string, unknown>)
    .catch(() => ({}));
  for (const backend of options.backends) {
    const opened = await openBackend(backend).catch((error: unknown) => {
      console.error(`ui bench: skipping ${backend}: ${errorMessage(error)}`);
      return undefined;
    });
    if (!opened) continue;
    try {
      console.error(`ui bench: ${backend}: filling ${options.tasks} tasks and ${options.dispatches} dispatches`);
      const fillStarted = performance.now();
      await fillLargeLedger(opened.ledger, options);
      const fillSeconds = round((performance.now() - fillStarted) / 1000);
      const result = { ...(await measure(opened.ledger, options)), fill_seconds: fillSeconds };
      results[backend] = result;
      console.error(`ui bench: ${backend}: ${JSON.stringify(result)}`);
      await save(results);
    } catch (error) {
      process.exitCode = 1;
      console.error(`ui bench: ${backend} failed:`, error);
    } finally {
      await opened.cleanup().catch(() => undefined);
    }
  }
  await save(results);
  console.log(JSON.stringify(results, null, 2));
}

async function measure(ledger: Ledger, options: Options) {
  const ui = await startUiServer({ ledger, port: 0, workspace: tmpdir() });
  try {
    const middle = `task-${String(Math.floor(options.tasks / 2)).padStart(5, '0')}`;
    const views: Record<string, string> = {
      tasks_first_page: '',
      tasks_blocked: '?status=blocked',
      tasks_search: '?q=number%209999',
      task_timeline: `tasks/${middle}`,
      providers: 'providers',
      panels: 'panels',
    };
    const http: Record<string, { p50_ms: number; p95_ms: number }> = {};
    for (const [name, suffix] of Object.entries(views)) {
      const samples = name === 'tasks_search' ? Math.min(options.samples, 5) : options.samples;
      http[name] = await timeEach(samples, async () => {
        const res = await fetch(`${ui.url}${suffix}`);
        if (!res.ok) throw new Error(`${suffix || '/'} answered ${res.status}`);
        await res.text();
      });
    }
    const browser = existsSync(CHROMIUM) ? await timeInBrowser(ui.url, options.samples) : undefined;
    const firstPage = browser?.p95_ms ?? http.tasks_first_page?.p95_ms ?? Number.POSITIVE_INFINITY;
    return {
      tasks: options.tasks,
      dispatches: options.dispatches,
      samples: options.samples,
      http,
      browser_first_page: browser ?? `skipped: ${CHROMIUM} not found`,
      target_first_page_ms: TARGET_FIRST_PAGE_MS,
      target_met: firstPage < TARGET_FIRST_PAGE_MS,
      load_avg_1m: round(loadavg()[0] ?? 0),
      node: process.version,
      measured_at: new Date().toISOString(),
    };
  } finally {
    await ui.close();
  }
}

/** Navigation start to the first table row in the DOM, in a fresh page each time. */
async function timeInBrowser(url: string, samples: number) {
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(path.join(tmpdir(), 'baton-ui-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const warm = await context.newPage();
    await warm.goto(url);
    await warm.close();
    return await timeEach(samples, async () => {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('#tasks tbody tr');
      await page.close();
    });
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

async function openBackend(backend: string): Promise<{ ledger: Ledger; cleanup: () => Promise<void> }> {
  if (backend === 'sqlite') {
    const dir = await mkdtemp(path.join(tmpdir(), 'baton-ui-bench-'));
    const ledger = await openLedger({ spec: `sqlite:${path.join(dir, 'agent.db')}` });
    return {
      ledger,
      cleanup: async () => {
        await ledger.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const namespace = `bench-ui-${process.pid}-${Date.now().toString(36)}`;
  const ledger = await openLedger({ spec: REDIS_URL, namespace });
  return {
    ledger,
    cleanup: async () => {
      await ledger.close();
      const { Redis } = await import('ioredis');
      const client = new Redis(REDIS_URL);
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', `baton:${namespace}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await client.unlink(...keys);
      } while (cursor !== '0');
      client.disconnect();
    },
  };
}

async function timeEach(samples: number, run: () => Promise<unknown>): Promise<{ p50_ms: number; p95_ms: number }> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => round(times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0);
  return { p50_ms: at(0.5), p95_ms: at(0.95) };
}

async function save(results: Record<string, unknown>): Promise<void> {
  await mkdir(path.dirname(RESULTS), { recursive: true });
  await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
}

function parseArgs(args: string[]): Options {
  const options: Options = { backends: ['sqlite'], tasks: 10_000, dispatches: 100_000, samples: 20 };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (flag === '--backends' && value) {
      options.backends = value.split(',').map((b) => b.trim());
      const unknown = options.backends.filter((b) => b !== 'sqlite' && b !== 'redis');
      if (unknown.length > 0) throw new Error(`--backends: unknown backend ${unknown.join(', ')} (use sqlite, redis)`);
      continue;
    }
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} needs a positive integer, got ${JSON.stringify(value)}`);
    if (flag === '--tasks') options.tasks = n;
    else if (flag === '--dispatches') options.dispatches = n;
    else if (flag === '--samples') options.samples = n;
    else throw new Error(`unknown flag ${flag}: use --backends, --tasks, --dispatches, --samples`);
  }
  return options;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
