import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toSnakeCase, toWireCase } from '../../src/util/wire-case.js';
import { runBaton, tempDir } from '../helpers/cli.js';

/** Every object key in a JSON value, with its path, except inside the user's own `options` maps. */
function keysOf(value: unknown, at = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => keysOf(item, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [`${at}.${key}`, ...(key === 'options' ? [] : keysOf(inner, `${at}.${key}`))]);
}

describe('toWireCase', () => {
  it('turns camelCase keys into snake_case at every depth and leaves values alone', () => {
    const input = { nextCursor: 'c', items: [{ taskId: 't', filesCreated: ['aB.ts'] }], counts: { in_progress: 1, '4096': 2 } };
    expect(toWireCase(input)).toEqual({
      next_cursor: 'c',
      items: [{ task_id: 't', files_created: ['aB.ts'] }],
      counts: { in_progress: 1, '4096': 2 },
    });
    expect(input.items[0]).toHaveProperty('taskId');
  });

  it("passes a task's own options map through as written", () => {
    expect(toWireCase({ task: { options: { maxTurns: 3 } } })).toEqual({ task: { options: { maxTurns: 3 } } });
  });

  it('keeps keys that are not camelCase identifiers', () => {
    expect(['Alice', 'already_snake', 'x-y', 'URL'].map(toSnakeCase)).toEqual(['Alice', 'already_snake', 'x-y', 'URL']);
  });
});

describe('--json output', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(async () => {
    await cleanup();
  });

  it('is snake_case in status, task and debt listings', async () => {
    await runBaton(['init'], { cwd: dir });
    await runBaton(['task', 'add', 't1', '--title', 'First'], { cwd: dir });
    await runBaton(['task', 'add', 't2', '--title', 'Second', '--depends-on', 't1'], { cwd: dir });
    await runBaton(['debt', 'add', 'Flaky test', '--task', 't1'], { cwd: dir });
    const outputs = await Promise.all(
      [
        ['status', '--json'],
        ['task', 'list', '--limit', '1', '--json'],
        ['task', 'show', 't2', '--json'],
        ['debt', 'list', '--json'],
      ].map((args) => runBaton(args, { cwd: dir })),
    );
    const camel = outputs.flatMap((out) => keysOf(out.json()).filter((key) => /\.[a-z]+[A-Z]/.test(key)));
    expect(camel).toEqual([]);
    expect(outputs[0]?.json()).toHaveProperty('open_breakers');
    expect(outputs[1]?.json()).toHaveProperty('next_cursor');
  });
});
