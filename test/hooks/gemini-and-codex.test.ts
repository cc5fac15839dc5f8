import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codex, codexCommandCompleted, gemini } from './helpers/payloads.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

/** A Gemini transcript whose last model message reports `input` prompt tokens (as Gemini CLI 0.61 records it). */
function geminiTranscript(file: string, input: number): void {
  writeFileSync(
    file,
    `${JSON.stringify({ sessionId: 'g', kind: 'main' })}\n${JSON.stringify({ id: 'm1', type: 'gemini', content: '', tokens: { input, output: 20, cached: 0, thoughts: 0, tool: 0, total: input + 20 }, model: 'gemini-3.1-pro-preview' })}\n`,
  );
}

describe('Gemini CLI: exit codes from the shell result, and one injection per compression', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('reads a failed shell command from "Exit Code: N" and records it; a zero exit is not a failure', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'g-exit', cwd: ws.dir };
    await ws.hook('gemini', 'session-start', gemini.sessionStart(s));
    await ws.hook('gemini', 'post-tool', gemini.shell(s, 'echo ok', 0, 'ok'));
    await ws.hook('gemini', 'post-tool', gemini.shell(s, 'ls /nope', 2, "ls: cannot access '/nope': No such file or directory"));
    await ws.hook('gemini', 'stop', gemini.afterAgent(s, 'list things', 'It failed.'));
    const record = await ws.session('gemini-g-exit');
    expect(record?.data.failures).toEqual([
      expect.objectContaining({ command: 'ls /nope', exitCode: 2, error: "ls: cannot access '/nope': No such file or directory" }),
    ]);
    expect(record?.data).toMatchObject({ toolCalls: 2, lastReply: 'It failed.' });
  });

  it('ignores the PreCompress Gemini fires before every turn, and after a real compression injects once (BeforeAgent), then not again', async () => {
    ws = makeHookWorkspace();
    const transcript = path.join(ws.dir, '.baton/transcript.jsonl');
    const s = { session: 'g-compress', cwd: ws.dir };
    ws.write('draft.md', 'x\n');
    await ws.hook('gemini', 'session-start', gemini.sessionStart(s, 'startup', transcript));
    geminiTranscript(transcript, 12_000);
    expect(await ws.hook('gemini', 'pre-compact', gemini.preCompress(s, 'auto', transcript))).toBe('');
    expect(await ws.hook('gemini', 'before-agent', gemini.beforeAgent(s, 'next', transcript))).toBe('');
    // No compaction counted (the session is recorded from its first fold on).
    expect((await ws.session('gemini-g-compress'))?.data.compactions ?? 0).toBe(0);

    // Past half of the 1,048,576-token window: Gemini compresses after this PreCompress.
    geminiTranscript(transcript, 600_000);
    expect(await ws.hook('gemini', 'pre-compact', gemini.preCompress(s, 'auto', transcript))).toBe('');
    const answer = JSON.parse(await ws.hook('gemini', 'before-agent', gemini.beforeAgent(s, 'go on', transcript))) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(answer.hookSpecificOutput.hookEventName).toBe('BeforeAgent');
    expect(answer.hookSpecificOutput.additionalContext).toContain('The conversation was just compacted');
    expect(answer.hookSpecificOutput.additionalContext).toContain('draft.md');
    expect(await ws.hook('gemini', 'before-agent', gemini.beforeAgent(s, 'and more', transcript))).toBe('');
    expect((await ws.session('gemini-g-compress'))?.data.compactions).toBe(1);
  });

  it('with BeforeAgent alone (no PreCompress, as install registers it now): a prompt past the threshold folds the work and injects once', async () => {
    ws = makeHookWorkspace();
    const transcript = path.join(ws.dir, '.baton/transcript.jsonl');
    const s = { session: 'g-before', cwd: ws.dir };
    await ws.hook('gemini', 'session-start', gemini.sessionStart(s, 'startup', transcript));
    ws.write('draft.md', 'x\n');
    geminiTranscript(transcript, 12_000);
    expect(await ws.hook('gemini', 'before-agent', gemini.beforeAgent(s, 'next', transcript))).toBe('');

    geminiTranscript(transcript, 600_000);
    const context = ws.context(await ws.hook('gemini', 'before-agent', gemini.beforeAgent(s, 'go on', transcript)));
    expect(context).toContain('The conversation was just compacted');
    expect(context).toContain('draft.md');
    // The same count again (no model message since): not told twice.
    expect(await ws.hook('gemini', 'before-agent', gemini.beforeAgent(s, 'and more', transcript))).toBe('');
    expect((await ws.session('gemini-g-before'))?.data.compactions).toBe(1);
  });

  it('after a /compress in the middle of a turn, the next tool result carries the context (AfterTool)', async () => {
    ws = makeHookWorkspace();
    const transcript = path.join(ws.dir, '.baton/transcript.jsonl');
    const s = { session: 'g-manual', cwd: ws.dir };
    await ws.hook('gemini', 'session-start', gemini.sessionStart(s, 'startup', transcript));
    ws.write('a.txt', 'a\n');
    await ws.hook('gemini', 'post-tool', gemini.write(s, path.join(ws.dir, 'a.txt'), 'a\n'));
    await ws.hook('gemini', 'pre-compact', gemini.preCompress(s, 'manual', transcript));
    const answer = JSON.parse(await ws.hook('gemini', 'post-tool', gemini.shell(s, 'true', 0, ''))) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(answer.hookSpecificOutput.hookEventName).toBe('AfterTool');
    expect(answer.hookSpecificOutput.additionalContext).toContain('created a.txt');
    expect(await ws.hook('gemini', 'post-tool', gemini.shell(s, 'true', 0, ''))).toBe('');
  });
});

describe('Codex CLI: exit codes from its rollout', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('marks a command failed only when the rollout shows a non-zero exit code, and keeps its output', async () => {
    ws = makeHookWorkspace();
    const rollout = path.join(ws.dir, '.baton/rollout.jsonl');
    writeFileSync(rollout, `${JSON.stringify({ type: 'session_meta' })}\n`);
    const s = { session: 'c-exit', cwd: ws.dir };
    await ws.hook('codex', 'session-start', codex.sessionStart(s, 'startup', rollout));
    ws.write('hello.txt', 'hi');
    await ws.hook('codex', 'post-tool', codex.bash(s, 'printf hi > hello.txt', '', 'call_0', rollout));
    appendFileSync(rollout, `${codexCommandCompleted('call_0', 'printf hi > hello.txt', 0)}\n`);
    await ws.hook(
      'codex',
      'post-tool',
      codex.bash(s, 'ls /nonexistent-dir', "ls: cannot access '/nonexistent-dir': No such file or directory\n", 'call_1', rollout),
    );
    appendFileSync(rollout, `${codexCommandCompleted('call_1', 'ls /nonexistent-dir', 2)}\n`);
    await ws.hook('codex', 'stop', codex.stop(s, rollout));
    const [turn] = await ws.turns('codex-c-exit');
    expect(turn).toMatchObject({ provider: 'codex', model: 'gpt-5.5', status: 'failed', exitCode: 2, filesCreated: ['hello.txt'] });
    expect(turn?.validationErrors).toEqual([
      "`ls /nonexistent-dir` exited 2: ls: cannot access '/nonexistent-dir': No such file or directory",
    ]);
  });

  it('invents no failure when the rollout cannot be read', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'c-none', cwd: ws.dir };
    await ws.hook('codex', 'post-tool', codex.bash(s, 'make', 'make: *** [all] Error 2', 'call_0', '/nonexistent/rollout.jsonl'));
    await ws.hook('codex', 'stop', codex.stop(s, '/nonexistent/rollout.jsonl'));
    expect((await ws.session('codex-c-none'))?.data.failures).toEqual([]);
  });
});

describe('prompts as recorded', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('keeps the user’s words only: Gemini hands BeforeAgent the prompt with the injected context in front', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'g-prompt', cwd: ws.dir };
    await ws.hook(
      'gemini',
      'before-agent',
      gemini.beforeAgent(s, '<hook_context># Baton context for this workspace\nmore</hook_context>\n\nFix the build'),
    );
    await ws.hook('gemini', 'stop', gemini.afterAgent(s, 'Fix the build', 'Fixed.'));
    expect((await ws.session('gemini-g-prompt'))?.data.lastPrompt).toBe('Fix the build');
  });
});
