import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBaton, tempDir } from '../helpers/cli.js';

const exec = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/baton.js');

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await cleanup();
});

describe('baton init and status', () => {
  it('creates .baton/agent.db and a commented config, and status reads the empty ledger', async () => {
    const init = await runBaton(['init', '--json'], { cwd: dir });
    expect(init.code).toBe(0);
    expect(init.json<{ ledger: string }>().ledger).toBe(path.join(dir, '.baton', 'agent.db'));
    const config = JSON.parse(await readFile(path.join(dir, '.baton', 'baton.config.json'), 'utf8'));
    expect(config['//']).toMatch(/comments/);
    const status = await runBaton(['status', '--json'], { cwd: dir });
    expect(status.code).toBe(0);
    expect(status.json<{ tasks: { total: number } }>().tasks.total).toBe(0);
  });

  it('status shows counts by status and the last dispatches after tasks are added', async () => {
    await runBaton(['task', 'add', 't1', '--title', 'First', '--criterion', 'tests pass :: npm test'], { cwd: dir });
    await runBaton(['task', 'add', 't2', '--title', 'Second', '--depends-on', 't1'], { cwd: dir });
    const text = await runBaton(['status'], { cwd: dir });
    expect(text.stdout).toMatch(/Tasks: 2 \(pending 2/);
    const shown = await runBaton(['task', 'show', 't1', '--json'], { cwd: dir });
    const { task } = shown.json<{ task: { acceptance_criteria: unknown[] } }>();
    expect(task.acceptance_criteria).toEqual([{ description: 'tests pass', check: 'npm test' }]);
    const second = await runBaton(['task', 'show', 't2', '--json'], { cwd: dir });
    expect(second.json<{ task: { depends_on: string[] } }>().task.depends_on).toEqual(['t1']);
  });
});

describe('baton task', () => {
  it('lists by status with a cursor across pages', async () => {
    for (let i = 0; i < 5; i++) await runBaton(['task', 'add', `t${i}`, '--title', `Task ${i}`], { cwd: dir });
    const first = await runBaton(['task', 'list', '--limit', '2', '--json'], { cwd: dir });
    const page1 = first.json<{ items: { id: string }[]; next_cursor: string }>();
    expect(page1.items.map((t) => t.id)).toEqual(['t0', 't1']);
    const second = await runBaton(['task', 'list', '--limit', '2', '--cursor', page1.next_cursor, '--json'], { cwd: dir });
    expect(second.json<{ items: { id: string }[] }>().items.map((t) => t.id)).toEqual(['t2', 't3']);
    const none = await runBaton(['task', 'list', '--status', 'blocked', '--json'], { cwd: dir });
    expect(none.json<{ items: unknown[] }>().items).toEqual([]);
  });

  it('exits 2 with a named error for bad input and an unknown task', async () => {
    const badStatus = await runBaton(['task', 'list', '--status', 'sleeping'], { cwd: dir });
    expect(badStatus.code).toBe(2);
    expect(badStatus.stderr).toMatch(/--status must be one of pending, in_progress, completed, blocked, archived; got "sleeping"/);
    const missing = await runBaton(['task', 'show', 'nope', '--json'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
    await runBaton(['task', 'add', 'dup', '--title', 'x'], { cwd: dir });
    const dup = await runBaton(['task', 'add', 'dup', '--title', 'x'], { cwd: dir });
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/already exists/);
  });
});

describe('baton debt', () => {
  it('records and lists open tech debt for a task', async () => {
    const added = await runBaton(
      ['debt', 'add', 'Schema rejects findings', '--impact', 'blocks research reports', '--task', 't1', '--json'],
      { cwd: dir },
    );
    expect(added.code).toBe(0);
    await runBaton(['debt', 'add', 'Other item'], { cwd: dir });
    const list = await runBaton(['debt', 'list', '--task', 't1', '--json'], { cwd: dir });
    const items = list.json<{ items: { data: { title: string }; status: string }[] }>().items;
    expect(items).toHaveLength(1);
    expect(items[0]?.data.title).toBe('Schema rejects findings');
    expect(items[0]?.status).toBe('open');
    const bad = await runBaton(['debt', 'add', 'x', '--severity', 'apocalyptic'], { cwd: dir });
    expect(bad.code).toBe(2);
  });
});

describe('baton export and import', () => {
  it('round-trips every record into another ledger', async () => {
    await runBaton(['task', 'add', 'a', '--title', 'A'], { cwd: dir });
    await runBaton(['debt', 'add', 'Known issue', '--task', 'a'], { cwd: dir });
    const exported = await runBaton(['export', '--out', 'dump.jsonl', '--json'], { cwd: dir });
    expect(exported.json<{ lines: number }>().lines).toBe(2);
    const other = ['--ledger', 'sqlite:other.db'];
    const imported = await runBaton(['import', 'dump.jsonl', ...other, '--json'], { cwd: dir });
    expect(imported.json<{ imported: number }>().imported).toBe(2);
    const again = await runBaton(['export', ...other], { cwd: dir });
    expect(again.stdout).toBe(await readFile(path.join(dir, 'dump.jsonl'), 'utf8'));
  });

  it('names the line and field of a malformed line and imports nothing', async () => {
    await runBaton(['task', 'add', 'a', '--title', 'A'], { cwd: dir });
    await runBaton(['export', '--out', 'dump.jsonl'], { cwd: dir });
    const good = (await readFile(path.join(dir, 'dump.jsonl'), 'utf8')).trim();
    const broken = JSON.parse(good);
    broken.record.id = 'b';
    broken.record.status = 'sleeping';
    await writeFile(path.join(dir, 'bad.jsonl'), `${good.replace('"a"', '"c"')}\n${JSON.stringify(broken)}\n`);
    const result = await runBaton(['import', 'bad.jsonl', '--ledger', 'sqlite:fresh.db', '--json'], { cwd: dir });
    expect(result.code).toBe(2);
    const { error } = result.json<{ error: { code: string; line: number; field: string } }>();
    expect(error).toMatchObject({ code: 'IMPORT_INVALID', line: 2, field: 'record.status' });
    const after = await runBaton(['task', 'list', '--ledger', 'sqlite:fresh.db', '--json'], { cwd: dir });
    expect(after.json<{ items: unknown[] }>().items).toEqual([]);

    await writeFile(path.join(dir, 'garbage.jsonl'), '{"kind":"task"\n');
    const garbage = await runBaton(['import', 'garbage.jsonl'], { cwd: dir });
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toMatch(/garbage\.jsonl:1: .*not valid JSON/);
  });
});

describe('the baton binary', () => {
  it('runs as a real process with meaningful exit codes', async () => {
    const ok = await exec('node', [BIN, 'status', '--json'], { cwd: dir });
    expect(JSON.parse(ok.stdout).tasks.total).toBe(0);
    const bad = await exec('node', [BIN, 'status', '--ledger', 'ftp://nowhere'], { cwd: dir }).catch((e) => e);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown ledger "ftp:\/\/nowhere"/);
    const help = await exec('node', [BIN, '--help']);
    for (const command of ['init', 'status', 'task', 'debt', 'export', 'import']) expect(help.stdout).toContain(command);
  });
});
