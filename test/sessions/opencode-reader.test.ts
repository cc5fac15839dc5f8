import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type AgentSession,
  createOpencodeParser,
  detectSessionClient,
  readSessionFile,
  type SessionToolCall,
} from '../../src/sessions/index.js';

/** A real OpenCode 1.18.33 database behind the scripted model (README.md beside it says how it was made). */
const DB = fileURLToPath(new URL('../fixtures/agent-sessions/opencode/opencode.db', import.meta.url));
const MAIN = `${DB}#ses_dda3fa255ffe5nnsw3TByS0kT0`;
const LIMITED = `${DB}#ses_dda3e55b4ffelXjVSVGRuCfpAA`;

const calls = (s: AgentSession): SessionToolCall[] => s.events.flatMap((e) => (e.type === 'tool' ? [e.call] : []));

function parse(records: unknown[]): AgentSession {
  const parser = createOpencodeParser('/data/opencode.db#ses_test1');
  for (const r of records) parser.push(r);
  return parser.finish();
}
const message = (id: string, data: Record<string, unknown>) => ({ table: 'message', id, data: JSON.stringify(data) });
const part = (messageId: string, data: Record<string, unknown>) => ({ table: 'part', messageId, data: JSON.stringify(data) });

describe('the OpenCode reader, on a session the real OpenCode 1.18.33 wrote', () => {
  it('reads the session row, prompts, answers and every call with its kind, key argument and result', async () => {
    expect(await detectSessionClient(MAIN)).toBe('opencode');
    const { session: s, end } = await readSessionFile(MAIN);
    expect(end).toBeGreaterThan(0);
    expect(s).toMatchObject({
      client: 'opencode',
      clientVersion: '1.18.33',
      id: 'ses_dda3fa255ffe5nnsw3TByS0kT0',
      cwd: '/home/dev/demo',
      gitRoot: '/home/dev/demo',
      model: 'scripted/scripted-model',
      ending: 'normal',
      skipped: 0,
    });
    expect(s.startedAt).toBe(1795929693611);
    expect(s.endedAt).toBe(1795929767104);
    // OpenCode quotes a `run` message that has spaces; the reader keeps what it stored.
    expect(s.events.filter((e) => e.type === 'user').map((e) => e.text)).toEqual([
      '"Fix notes.txt and add greet.js"',
      '"--- SECOND: check node"',
    ]);
    expect(s.events.every((e) => e.at !== undefined)).toBe(true);
    expect(calls(s).map((c) => [c.name, c.kind, c.key])).toEqual([
      ['todowrite', 'plan', '2 items, 2 open'],
      ['bash', 'search', 'ls missing-dir'],
      ['read', 'read', '/home/dev/demo/notes.txt'],
      ['edit', 'edit', '/home/dev/demo/notes.txt'],
      ['edit', 'edit', '/home/dev/demo/notes.txt'],
      ['write', 'write', '/home/dev/demo/greet.js'],
      ['task', 'task', 'Inspect files'],
      ['todowrite', 'plan', '2 items, 1 open'],
    ]);
    expect(s.events.at(-1)).toMatchObject({ type: 'assistant', text: 'Node is installed.' });
  });

  it('says which calls failed, with the shell exit code and the line that says why', async () => {
    const { session: s } = await readSessionFile(MAIN);
    const [, shell, , edited, refused] = calls(s);
    expect(shell).toMatchObject({ failed: true, exitCode: 2, failureLine: "ls: cannot access 'missing-dir': No such file or directory" });
    expect(edited).toMatchObject({ failed: false, output: 'Edit applied successfully.', paths: ['/home/dev/demo/notes.txt'] });
    expect(refused?.failed).toBe(true);
    expect(refused?.failureLine).toMatch(/^Could not find oldString in the file/);
  });

  it('reads the plan the todo calls set, and links the sub-agent session a task call started', async () => {
    const { session: s } = await readSessionFile(MAIN);
    expect(calls(s).at(-1)?.plan).toEqual([
      { text: 'Fix notes.txt', status: 'completed' },
      { text: 'Run the tests', status: 'in_progress' },
    ]);
    expect(s.subagents).toEqual([{ id: 'ses_dda3f1852ffeROiOm7oKGsD4GB', parentCallId: 'call_7_0' }]);
  });

  it('ends a session whose model answered with a quota error as a usage limit, in its own words', async () => {
    const { session: s } = await readSessionFile(LIMITED);
    expect(s.ending).toBe('usage_limit');
    expect(s.endingMessage).toBe('You exceeded your current quota, please check your plan and billing details.');
    expect(s.events).toEqual([{ type: 'user', text: 'THIRD prompt from stdin', at: 1795929779622 }]);
  });

  it('refuses a source that names no session, naming it', async () => {
    await expect(readSessionFile(`${DB}#ses_doesnotexist`, { client: 'opencode' })).rejects.toThrow(/holds no session ses_doesnotexist/);
    await expect(readSessionFile(DB, { client: 'opencode' })).rejects.toThrow(/not an OpenCode session/);
  });
});

describe('the OpenCode parser', () => {
  it('reads an aborted turn as interrupted, a later finished one as normal again, and other API errors as errors', () => {
    const aborted = parse([
      message('m1', { role: 'user', time: { created: 1 } }),
      part('m1', { type: 'text', text: 'go' }),
      message('m2', { role: 'assistant', time: { created: 2 }, error: { name: 'MessageAbortedError', data: { message: 'Aborted' } } }),
    ]);
    expect(aborted.ending).toBe('interrupted');
    const resumed = parse([
      message('m2', { role: 'assistant', time: { created: 2 }, error: { name: 'APIError', data: { message: 'boom', statusCode: 500 } } }),
      message('m3', { role: 'assistant', time: { created: 3, completed: 4 }, finish: 'stop' }),
    ]);
    expect([resumed.ending, resumed.endingMessage]).toEqual(['normal', undefined]);
    const failed = parse([message('m2', { role: 'assistant', error: { name: 'APIError', data: { message: 'boom', statusCode: 500 } } })]);
    expect([failed.ending, failed.endingMessage]).toEqual(['error', 'boom']);
    const limited = parse([
      message('m2', { role: 'assistant', error: { name: 'APIError', data: { message: 'Too busy', statusCode: 429 } } }),
    ]);
    expect(limited.ending).toBe('usage_limit');
  });

  it('keeps synthetic text out of the prompts, reads a summary message as a compaction, and counts what it cannot read', () => {
    const s = parse([
      { table: 'session', row: { id: 'ses_test1', parent_id: 'ses_parent', title: 'New session - 2026-11-29T05:14:08.404Z' } },
      message('m1', { role: 'user', time: { created: 10 } }),
      part('m1', { type: 'text', text: 'Called the Read tool', synthetic: true }),
      part('m1', { type: 'text', text: 'fix it' }),
      message('m2', { role: 'assistant', summary: true, time: { created: 11 } }),
      part('m2', { type: 'text', text: 'We fixed the adder.', time: { start: 12 } }),
      part('m2', { type: 'step-finish' }),
      part('m2', { type: 'hologram' }),
      { table: 'part', messageId: 'm2', data: '{not json' },
      'garbage',
    ]);
    expect(s.parentId).toBe('ses_parent');
    expect(s.title).toBeUndefined();
    expect(s.events).toEqual([
      { type: 'user', text: 'fix it', at: 10 },
      { type: 'compaction', summary: 'We fixed the adder.', at: 12 },
    ]);
    expect(s.skipped).toBe(3);
  });

  it('masks secrets in arguments and results, and leaves a running call without a result', () => {
    const s = parse([
      message('m1', { role: 'assistant' }),
      part('m1', {
        type: 'tool',
        tool: 'bash',
        callID: 'c1',
        state: {
          status: 'completed',
          input: { command: 'echo $X' },
          output: 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789',
          metadata: { exit: 0 },
        },
      }),
      part('m1', { type: 'tool', tool: 'grep', callID: 'c2', state: { status: 'running', input: { pattern: 'TODO', path: 'src' } } }),
    ]);
    const [shell, search] = calls(s);
    expect(shell?.output).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(shell).toMatchObject({ failed: false, exitCode: 0, kind: 'shell' });
    expect(search).toMatchObject({ kind: 'search', key: 'TODO in src' });
    expect(search?.output).toBeUndefined();
  });
});
