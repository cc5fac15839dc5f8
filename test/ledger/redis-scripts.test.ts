/**
 * DragonflyDB runs a Lua script only when every key it touches was declared in KEYS (and Redis
 * Cluster routes by the declared keys). No DragonflyDB runs here, so this reads the scripts'
 * source and checks that every key argument of every redis.call is a KEYS[...] entry.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const SOURCE = readFileSync(path.join(import.meta.dirname, '../../src/ledger/redis/redis-scripts.ts'), 'utf8');
/** Commands whose first argument is not a key. */
const KEYLESS = new Set(['TIME', 'PING']);

it('passes every key a ledger script touches through KEYS, never a name built in Lua', () => {
  const calls = [...SOURCE.matchAll(/redis\.call\(\s*'([A-Z]+)'\s*,\s*([^,)]+)/g)];
  expect(calls.length).toBeGreaterThan(15);
  for (const [call, command, firstArg] of calls) {
    if (KEYLESS.has(command as string)) continue;
    expect(firstArg?.trim(), call).toMatch(/^KEYS\[[^\]]+\]$/);
  }
  // Key names are never concatenated inside a script.
  expect(SOURCE).not.toMatch(/KEYS\[[^\]]+\]\s*\.\./);
  expect(SOURCE).not.toMatch(/\.\.\s*ARGV/);
});
