import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { longestFirst, readDurations } from './sequencer/index.js';

const root = mkdtempSync(path.join(tmpdir(), 'baton-sequencer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the order test files start in', () => {
  it('starts listed files longest first, then unlisted ones larger first', () => {
    mkdirSync(path.join(root, 'test'));
    const sizes = { a: 10, b: 500, c: 20, d: 5 };
    for (const [name, bytes] of Object.entries(sizes)) writeFileSync(path.join(root, 'test', `${name}.test.ts`), 'x'.repeat(bytes));
    const durations = new Map([
      ['test/a.test.ts', 90_000],
      ['test/d.test.ts', 120_000],
    ]);
    const files = Object.keys(sizes).map((name) => ({ moduleId: path.join(root, 'test', `${name}.test.ts`) }));
    const order = longestFirst(files, (spec) => spec.moduleId, root, durations);
    expect(order.map((spec) => path.basename(spec.moduleId))).toEqual(['d.test.ts', 'a.test.ts', 'b.test.ts', 'c.test.ts']);
  });

  it('checks the durations list, naming the file and the entry', () => {
    const bad = path.join(root, 'durations.json');
    writeFileSync(bad, JSON.stringify({ 'test/x.test.ts': 'slow' }));
    expect(() => readDurations(bad)).toThrow(`${bad}: "test/x.test.ts" must be a duration in milliseconds, got "slow"`);
  });

  it('lists the slow suites, each a file that exists', () => {
    const durations = readDurations();
    expect(durations.get('test/hooks/real-clients-claude.test.ts')).toBeGreaterThan(10_000);
    const repo = path.resolve(import.meta.dirname, '../..');
    for (const file of durations.keys()) expect(existsSync(path.join(repo, file)), file).toBe(true);
  });
});
