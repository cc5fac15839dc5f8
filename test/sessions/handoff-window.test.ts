import { appendFile, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHandoff, claudeProjectSlug, readSessionFile, readSessionWindow } from '../../src/sessions/index.js';
import { git } from '../../src/workspace/index.js';
import { tempDir } from '../helpers/cli.js';
import { runBin, storeEnv } from './session-stores-helper.js';

const ID = '7a1d0ff0-0000-4000-8000-000000000037';
const OUTPUT = 'x'.repeat(1500);

/** Claude Code transcript lines: a first request, then `calls` Bash calls (every 100th an Edit of src/f<i>.ts), from `at`. */
function claudeLines(cwd: string, from: number, calls: number, extra: unknown[] = [], output = OUTPUT, preamble: unknown[] = []): string {
  const base = { sessionId: ID, cwd, version: '2.1.0', isSidechain: false };
  const t = (i: number) => new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
  const lines: unknown[] = [...preamble];
  if (from === 0)
    lines.push({
      ...base,
      type: 'user',
      uuid: 'u0',
      timestamp: t(0),
      message: { role: 'user', content: 'Port the parser to the new API' },
    });
  for (let i = from; i < from + calls; i += 1) {
    const edit = i % 100 === 0;
    const input = edit ? { file_path: path.join(cwd, 'src', `f${i}.ts`), old_string: 'a', new_string: 'b' } : { command: `echo step ${i}` };
    lines.push({
      ...base,
      type: 'assistant',
      uuid: `a${i}`,
      timestamp: t(i * 2 + 1),
      message: {
        id: `msg_${i}`,
        role: 'assistant',
        model: 'claude-test',
        content: [{ type: 'tool_use', id: `toolu_${i}`, name: edit ? 'Edit' : 'Bash', input }],
      },
    });
    lines.push({
      ...base,
      type: 'user',
      uuid: `r${i}`,
      timestamp: t(i * 2 + 2),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `step ${i} done\n${output}` }] },
    });
  }
  return [...lines, ...extra].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

describe('the handoff reads a long session’s head and tail only', () => {
  let root: string;
  let home: string;
  let workspace: string;
  let file: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const t = await tempDir('baton-handoff-window-');
    cleanup = t.cleanup;
    root = t.dir;
    home = path.join(root, 'home');
    workspace = path.join(root, 'project');
    await mkdir(workspace, { recursive: true });
    await git(['init', '-q'], workspace);
    const folder = path.join(storeEnv(home).CLAUDE_CONFIG_DIR as string, 'projects', claudeProjectSlug(workspace));
    await mkdir(folder, { recursive: true });
    file = path.join(folder, `${ID}.jsonl`);
    await writeFile(file, claudeLines(workspace, 0, 3000));
  });
  afterAll(() => cleanup());

  it('a huge session: the window reads well under half the file and gives the whole read’s first request and newest events', async () => {
    const size = (await stat(file)).size;
    const window = await readSessionWindow(file, 'claude', 300);
    const whole = (await readSessionFile(file, { client: 'claude' })).session;
    expect(window?.whole).toBe(false);
    expect(window?.bytesRead).toBeLessThan(size / 2);
    expect(window?.first).toEqual(whole.events[0]);
    expect(window?.tail.slice(-300)).toEqual(whole.events.slice(-300));
    expect(window?.session.id).toBe(ID);
  });

  it('sized by the record’s count of events, the tail is read in one window: fewer bytes, the same newest events', async () => {
    const guessed = await readSessionWindow(file, 'claude', 300);
    // 3,000 calls, one event each (this transcript has no replies between them), and the request.
    const sized = await readSessionWindow(file, 'claude', 300, { expectedEvents: 3001 });
    expect(sized?.tail.slice(-300)).toEqual(guessed?.tail.slice(-300));
    expect(sized?.first).toEqual(guessed?.first);
    expect(sized?.bytesRead).toBeLessThan((guessed?.bytesRead ?? 0) * 0.8);
  });

  it('a first request the tail window also holds (a long preamble before it) is in the window once', async () => {
    const preamble = Array.from({ length: 100 }, (_, i) => ({
      type: 'file-history-snapshot',
      messageId: `m${i}`,
      snapshot: { pad: 'p'.repeat(1000) },
    }));
    const short = path.join(root, 'short.jsonl');
    await writeFile(short, claudeLines(workspace, 0, 330, [], 'ok', preamble));
    const size = (await stat(short)).size;
    const window = await readSessionWindow(short, 'claude', 300);
    expect(size).toBeGreaterThan(256 * 1024);
    expect(window?.whole).toBe(false);
    const firsts = window?.session.events.filter((e) => e.type === 'user' && e.text === 'Port the parser to the new API');
    expect(firsts).toHaveLength(1);
  });

  it('a session not yet imported: the first handoff imports it and says what the whole session did (an early edit from the record)', async () => {
    const run = await runBin(['handoff', '--print', '--budget', '2500'], workspace, storeEnv(home));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const whole = (await readSessionFile(file, { client: 'claude' })).session;
    const expected = await buildHandoff({ session: whole, target: 'codex', budget: 2500 });
    const line = (text: string, start: string) => text.split('\n').find((l) => l.startsWith(start));
    for (const start of ['## Claude Code session', 'Task:', 'Last actions:'])
      expect(line(run.stdout, start)).toBe(line(expected.text, start));
    expect(line(run.stdout, 'Files edited:')).toContain('src/f0.ts');
    expect(line(run.stdout, 'Files edited:')).toContain(path.join(workspace, 'src', 'f2900.ts'));
    expect(run.stdout).toContain('echo step 2999');
  });

  it('a session file that grew after its import: the next handoff has the appended request, failure and edit', async () => {
    const failing = {
      sessionId: ID,
      cwd: workspace,
      type: 'user',
      uuid: 'late',
      timestamp: new Date(Date.UTC(2026, 10, 2)).toISOString(),
      message: { role: 'user', content: 'now make npm test pass' },
    };
    const failed = [
      failing,
      {
        sessionId: ID,
        cwd: workspace,
        type: 'assistant',
        uuid: 'fa',
        timestamp: new Date(Date.UTC(2026, 10, 2, 0, 1)).toISOString(),
        message: {
          id: 'msg_f',
          role: 'assistant',
          model: 'claude-test',
          content: [{ type: 'tool_use', id: 'toolu_f', name: 'Bash', input: { command: 'npm test' } }],
        },
      },
      {
        sessionId: ID,
        cwd: workspace,
        type: 'user',
        uuid: 'fr',
        timestamp: new Date(Date.UTC(2026, 10, 2, 0, 2)).toISOString(),
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_f', content: 'FAIL test/parser.test.ts\nExit code 1', is_error: true }],
        },
      },
    ];
    await appendFile(file, claudeLines(workspace, 3000, 100, failed));
    const run = await runBin(['handoff', '--print'], workspace, storeEnv(home));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Newest request: now make npm test pass');
    expect(run.stdout).toMatch(/Newest failure: npm test/);
    expect(run.stdout).toContain(path.join(workspace, 'src', 'f3000.ts'));
    expect(run.stdout).toContain('src/f0.ts');
  });
});
