/**
 * The handoff's workspace state from one `git status --porcelain --branch` (issue 37's handoff
 * cost): the branch (also before the first commit), the uncommitted changes without Baton's own
 * files, nothing outside a repository; and the handoff's transcript recorded without the
 * per-event schema check (ContextManager.recordTrusted) assembles as the checked path does.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextManager, type LoopEvent } from '../../src/loop/index.js';
import { workspaceGitLines, workspaceState } from '../../src/sessions/index.js';

describe('workspaceGitLines', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'baton-handoff-git-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('names the branch and the changes to review, never Baton’s own files', async () => {
    const dir = path.join(root, 'repo');
    await mkdir(path.join(dir, '.baton'), { recursive: true });
    execFileSync('git', ['init', '-q', '-b', 'work'], { cwd: dir });
    await writeFile(path.join(dir, 'a.ts'), 'a\n');
    await writeFile(path.join(dir, '.baton', 'state.json'), '{}\n');
    await writeFile(path.join(dir, 'settings.json.baton-backup'), '{}\n');
    expect(await workspaceGitLines(dir)).toEqual(['Branch: work', 'Uncommitted changes: ?? a.ts']);
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', 'add', 'a.ts'], { cwd: dir });
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-qm', 'a'], { cwd: dir });
    execFileSync('git', ['checkout', '-q', '-b', 'feature/x'], { cwd: dir });
    expect(await workspaceGitLines(dir)).toEqual(['Branch: feature/x', 'Uncommitted changes: none']);
    execFileSync('git', ['checkout', '-q', '--detach'], { cwd: dir });
    expect(await workspaceState(dir, undefined, [])).toBe('Branch: HEAD\nUncommitted changes: none');
  });

  it('says nothing of git outside a repository', async () => {
    const dir = path.join(root, 'plain');
    await mkdir(dir, { recursive: true });
    expect(await workspaceGitLines(dir)).toEqual([]);
  });
});

describe('ContextManager.recordTrusted', () => {
  const events: LoopEvent[] = [
    { kind: 'system', text: 'You hand work over.' },
    { kind: 'user', text: 'Fix the failing test in src/a.ts' },
    { kind: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'Bash', args: { command: 'npm test' } }] },
    { kind: 'tool', callId: 'c1', name: 'Bash', text: 'FAIL src/a.test.ts\nError: expected 1', exitCode: 1 },
    { kind: 'assistant', text: 'The issue is the off-by-one in src/a.ts; I should fix the loop bound.' },
  ];

  it('assembles what record builds, and record still checks input at the public edge', () => {
    const checked = new ContextManager({ metrics: false });
    checked.recordAll(events);
    const trusted = new ContextManager({ metrics: false });
    trusted.recordTrusted(events);
    const text = trusted.assemble({ budget: 1000 }).text;
    expect(text).toBe(checked.assemble({ budget: 1000 }).text);
    expect(text).toContain('npm test');
    expect(trusted.turnCount).toBe(2);
    expect(() => checked.record({ kind: 'tool', callId: 'c2', name: 'Bash' } as unknown as LoopEvent)).toThrow(/text/);
  });
});
