import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_TITLE } from '../../src/hooks/index.js';
import { claude } from './helpers/payloads.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

describe('a Claude Code session through its hooks', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('records the files the session changed (measured, not taken from the tool input) and its failed command, one dispatch per turn, and closes the record', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'sess-one', cwd: ws.dir };
    expect(await ws.hook('claude', 'session-start', claude.sessionStart(s))).toBe('');
    await ws.hook('claude', 'prompt', claude.prompt(s, 'Add a greeting module'));
    ws.write('src/greet.js', 'export const hi = 1;\n');
    ws.write('README.md', '# demo\n\nnow with a greeting\n');
    // The tool input names a file that was never written: only what changed on disk counts.
    await ws.hook('claude', 'post-tool', claude.write(s, path.join(ws.dir, 'src/not-written.js'), 'x'));
    await ws.hook(
      'claude',
      'post-tool',
      claude.bashFailure(
        s,
        'npm test',
        1,
        '…n_ms: 5.037029\nTAP version 13\nnot ok 1 - greet\n  Error: Cannot find module greet\n    at run (test.js:1)\n# duration_ms 12.5',
      ),
    );
    await ws.hook('claude', 'stop', claude.stop(s, 'Added src/greet.js; the tests fail.'));

    const turns = await ws.turns('claude-sess-one');
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({
      taskId: 'claude-sess-one',
      attempt: 1,
      provider: 'claude-code',
      mode: 'interactive',
      status: 'failed',
      outcome: 'agent_error',
      exitCode: 1,
      filesCreated: ['src/greet.js'],
      filesUpdated: ['README.md'],
      filesDeleted: [],
    });
    expect(turns[0]?.validationErrors).toEqual(['`npm test` exited 1: Error: Cannot find module greet']);

    await ws.hook('claude', 'session-end', claude.sessionEnd(s));
    const record = await ws.session('claude-sess-one');
    expect(record?.status).toBe('ended');
    expect(record?.data).toMatchObject({
      turns: 1,
      toolCalls: 2,
      filesCreated: ['src/greet.js'],
      filesUpdated: ['README.md'],
      lastPrompt: 'Add a greeting module',
      lastReply: 'Added src/greet.js; the tests fail.',
      endReason: 'other',
    });
    expect(record?.data.failures).toEqual([expect.objectContaining({ command: 'npm test', exitCode: 1, turn: 1 })]);
    expect(record?.data.summary).toBe(
      'Claude Code session sess-one: 1 turn, 2 tool calls; created src/greet.js; changed README.md; 1 failed command (last: `npm test`, exit 1); ended (other).',
    );
  });

  it('gives a new session the last session’s files, failure and request, and a next step about the failure', async () => {
    ws = makeHookWorkspace();
    const first = { session: 'first', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(first));
    await ws.hook('claude', 'prompt', claude.prompt(first, 'Write hello.txt and run the checks'));
    ws.write('hello.txt', 'hi\n');
    await ws.hook('claude', 'post-tool', claude.write(first, path.join(ws.dir, 'hello.txt'), 'hi\n'));
    await ws.hook(
      'claude',
      'post-tool',
      claude.bashFailure(first, 'ls /nonexistent-dir', 2, "ls: cannot access '/nonexistent-dir': No such file or directory"),
    );
    await ws.hook('claude', 'stop', claude.stop(first));
    await ws.hook('claude', 'session-end', claude.sessionEnd(first));

    const context = ws.context(await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'second', cwd: ws.dir })));
    expect(context?.startsWith(CONTEXT_TITLE)).toBe(true);
    expect(context).toMatch(/as of \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(context).toContain('created hello.txt');
    expect(context).toContain('`ls /nonexistent-dir` exited 2 (Claude Code session first');
    expect(context).toContain("cannot access '/nonexistent-dir'");
    expect(context).toContain('Last request: "Write hello.txt and run the checks"');
    expect(context).toContain('- hello.txt (new, untracked)');
    expect(context).toMatch(/## Next step\nThe latest turn ended after `ls \/nonexistent-dir` exited 2/);
    // The session being started has done nothing yet: it is not listed.
    expect(context).not.toContain('session second');
  });

  it('does not inject the same context again on a resume, injects a changed one, and always injects after a compaction', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'resumed', cwd: ws.dir };
    ws.write('notes.md', 'draft\n');
    expect(ws.context(await ws.hook('claude', 'session-start', claude.sessionStart(s)))).toContain('notes.md');
    // Nothing changed: the copy in the session's history is still right.
    expect(await ws.hook('claude', 'session-start', claude.sessionStart(s, 'resume'), { now: Date.now() + 120_000 })).toBe('');

    ws.write('more.md', 'x\n');
    await ws.hook('claude', 'post-tool', claude.write(s, path.join(ws.dir, 'more.md'), 'x\n'));
    await ws.hook('claude', 'stop', claude.stop(s));
    const resumed = ws.context(await ws.hook('claude', 'session-start', claude.sessionStart(s, 'resume')));
    expect(resumed).toContain('This session was resumed');
    expect(resumed).toContain('- more.md (new, untracked)');
    // Its own history holds what this session did: it is not told again.
    expect(resumed).not.toContain('(this session;');
    // A new prompt in the resumed session does not make the unchanged workspace look changed.
    await ws.hook('claude', 'prompt', claude.prompt(s, 'and now?'));
    await ws.hook('claude', 'stop', claude.stop(s));
    expect(await ws.hook('claude', 'session-start', claude.sessionStart(s, 'resume'))).toBe('');

    await ws.hook('claude', 'pre-compact', claude.preCompact(s, 'manual'));
    const compacted = ws.context(await ws.hook('claude', 'session-start', claude.sessionStart(s, 'compact')));
    expect(compacted).toContain('The conversation was just compacted');
    // After a compaction the session's own record is what it lost: told first.
    expect(compacted).toContain('(this session;');
    expect(compacted).toContain('created more.md');
    expect(compacted).toContain('1 compaction');
    expect((await ws.session('claude-resumed'))?.data.compactions).toBe(1);
  });

  it('folds the journal a killed session left when that session resumes', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'killed', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(s));
    ws.write('half.txt', 'half\n');
    await ws.hook('claude', 'post-tool', claude.write(s, path.join(ws.dir, 'half.txt'), 'half\n'));
    // No Stop, no SessionEnd: the client died. The next start of the session folds the turn.
    expect(await ws.turns('claude-killed')).toEqual([]);
    await ws.hook('claude', 'session-start', claude.sessionStart(s, 'resume'));
    expect((await ws.turns('claude-killed')).map((d) => d.filesCreated)).toEqual([['half.txt']]);
  });

  it('closes a session abandoned hours ago (no SessionEnd) when another starts, with the failures its journal held', async () => {
    ws = makeHookWorkspace();
    const start = Date.now();
    const dead = { session: 'dead', cwd: ws.dir };
    await ws.hook('claude', 'session-start', claude.sessionStart(dead), { now: start });
    await ws.hook('claude', 'post-tool', claude.bashFailure(dead, 'make deploy', 2, 'no credentials'), { now: start + 1_000 });
    // The client was killed: no Stop, no SessionEnd. Seven hours later another session starts.
    const context = ws.context(
      await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'later', cwd: ws.dir }), { now: start + 7 * 3_600_000 }),
    );
    const record = await ws.session('claude-dead');
    expect(record?.status).toBe('ended');
    expect(record?.data).toMatchObject({
      endReason: 'abandoned',
      toolCalls: 1,
      failures: [expect.objectContaining({ command: 'make deploy', exitCode: 2 })],
    });
    expect(context).toContain('`make deploy` exited 2');
    expect(context).toContain('ended (abandoned)');
  });

  it('masks secrets in what it records and what it injects', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'secret', cwd: ws.dir };
    const key = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';
    await ws.hook('claude', 'session-start', claude.sessionStart(s));
    await ws.hook(
      'claude',
      'post-tool',
      claude.bashFailure(s, `curl -H "x-api-key: ${key}" https://api.example.com`, 22, `401 for key ${key}`),
    );
    await ws.hook('claude', 'session-end', claude.sessionEnd(s));
    const stored = JSON.stringify([await ws.session('claude-secret'), await ws.turns('claude-secret')]);
    expect(stored).not.toContain(key);
    expect(stored).toContain('[REDACTED:anthropic]');
    const context = ws.context(await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'next', cwd: ws.dir })));
    expect(context).not.toContain(key);
    expect(context).toContain('[REDACTED:anthropic]');
  });
});
