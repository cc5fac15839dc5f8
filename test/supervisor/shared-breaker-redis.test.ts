import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Ledger, newId, openLedger } from '../../src/ledger/index.js';
import { CircuitBreaker } from '../../src/supervisor/index.js';

const REDIS_URL = process.env.BATON_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
const ROOT = path.resolve(__dirname, '../..');
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const PROCESSES = 4;

// One supervisor process: opens the shared ledger, says "ready", waits for "go", then asks the
// breaker for the provider once and prints its decision as JSON.
const CHILD = `
import { createInterface } from 'node:readline';
import { openLedger } from ${JSON.stringify(path.join(ROOT, 'src/ledger/index.ts'))};
import { CircuitBreaker } from ${JSON.stringify(path.join(ROOT, 'src/supervisor/index.ts'))};
const ledger = await openLedger({ spec: process.env.URL, namespace: process.env.NS });
const breaker = new CircuitBreaker({ ledger, owner: process.env.OWNER });
await ledger.getBreaker('gemini');
console.log('ready');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line !== 'go') continue;
  const decision = await breaker.acquire('gemini');
  console.log(JSON.stringify({ owner: process.env.OWNER, ...decision }));
  break;
}
lines.close();
await ledger.close();
`;

let ledger: Ledger | undefined;
let skipReason: string | undefined;
const namespace = `h4-breaker-${newId('t')}`;

beforeAll(async () => {
  try {
    ledger = await openLedger({ spec: REDIS_URL, namespace, connectTimeoutMs: 1000 });
  } catch (error) {
    if (process.env.BATON_REQUIRE_REDIS === '1') throw error;
    skipReason = `Redis unreachable at ${REDIS_URL}: ${(error as Error).message}`;
    console.warn(`SKIPPED shared breaker test: ${skipReason} (set BATON_REQUIRE_REDIS=1 to fail instead)`);
  }
});

afterAll(async () => {
  await ledger?.close();
  if (skipReason) return;
  // Leave no keys behind in the shared test database.
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  const keys = await redis.keys(`baton:${namespace}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

function collect(child: ChildProcess): { lines: string[] } {
  const state = { lines: [] as string[] };
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    state.lines.push(...parts.filter(Boolean));
  });
  return state;
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the supervisor processes');
    await sleep(50);
  }
}

describe('breaker shared by 4 processes on the real Redis', () => {
  it('lets exactly one process take the half-open probe', async (ctx) => {
    if (!ledger) return ctx.skip(skipReason);
    await new CircuitBreaker({ ledger, owner: 'opener' }).record('gemini', { kind: 'rate_limited', resetAt: Date.now() + 300 });
    expect((await ledger.getBreaker('gemini'))?.state).toBe('open');
    const children = Array.from({ length: PROCESSES }, (_, i) =>
      spawn(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', CHILD], {
        cwd: ROOT,
        env: { ...process.env, URL: REDIS_URL, NS: namespace, OWNER: `proc-${i}` },
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    const outputs = children.map(collect);
    try {
      await until(() => outputs.every((o) => o.lines.includes('ready')), 60_000);
      const breaker = await ledger.getBreaker('gemini');
      await sleep(Math.max(0, (breaker?.until ?? 0) - Date.now() + 20));
      for (const child of children) child.stdin?.write('go\n');
      await until(() => outputs.every((o) => o.lines.length >= 2), 30_000);
    } finally {
      for (const child of children) child.kill('SIGKILL');
    }
    const decisions = outputs.map((o) => JSON.parse(o.lines[1] as string) as { owner: string; allowed: boolean; probe?: boolean });
    const winners = decisions.filter((d) => d.allowed);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.probe).toBe(true);
    const after = await ledger.getBreaker('gemini');
    expect(after).toMatchObject({ state: 'half_open', probeOwner: winners[0]?.owner });
    // The probe's success closes the breaker for everyone.
    await new CircuitBreaker({ ledger, owner: winners[0]?.owner as string }).record('gemini', { kind: 'ok' });
    expect((await ledger.getBreaker('gemini'))?.state).toBe('closed');
  });
});
