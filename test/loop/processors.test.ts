import { describe, expect, it } from 'vitest';
import {
  classifyTool,
  createSnippetExtractor,
  findErrorLines,
  processEditFile,
  processGrep,
  processListDir,
  processReadFile,
  processTerminal,
  processToolOutput,
} from '../../src/loop/index.js';

const input = (name: string, args: Record<string, unknown>, output: string, extra: object = {}) => ({
  intent: classifyTool({ name, args }),
  toolName: name,
  args,
  output,
  ...extra,
});

describe('tool classification', () => {
  it('recognises structured tools, shell commands and SWE-agent text actions', () => {
    expect(classifyTool({ name: 'read_file', args: { path: 'a.ts' } })).toMatchObject({ kind: 'read_file', path: 'a.ts' });
    expect(classifyTool({ name: 'str_replace_editor', args: { command: 'view', path: 'a.py' } }).kind).toBe('read_file');
    expect(classifyTool({ name: 'str_replace_editor', args: { command: 'create', path: 'b.py' } })).toMatchObject({
      kind: 'edit_file',
      path: 'b.py',
    });
    expect(classifyTool({ name: 'bash', args: { command: 'grep -rn foo src' } }).kind).toBe('grep');
    expect(classifyTool({ name: 'bash', args: { command: "sed -i 's/a/b/' src/x.py" } })).toMatchObject({
      kind: 'edit_file',
      path: 'src/x.py',
    });
    expect(classifyTool({ name: 'bash', args: { command: 'ls -la' } }).kind).toBe('list_dir');
    expect(classifyTool({ name: 'bash', args: { command: 'pytest -q' } }).kind).toBe('terminal');
    expect(classifyTool({ name: 'edit', args: { command: 'edit 12:15\nfoo\nend_of_edit' } })).toMatchObject({
      kind: 'edit_file',
      lines: { start: 12, end: 15 },
    });
    expect(classifyTool({ name: 'open', args: { command: 'open src/app.py 40' } })).toMatchObject({
      kind: 'read_file',
      path: 'src/app.py',
    });
    expect(classifyTool({ name: 'create', args: { command: 'create repro.py' } })).toMatchObject({ kind: 'edit_file', path: 'repro.py' });
  });

  it('reads every client through the vocabulary table: Codex argv shells and patches, Gemini and Claude edits', () => {
    expect(classifyTool({ name: 'shell', args: { command: ['bash', '-lc', 'rg -n foo src'] } })).toMatchObject({
      kind: 'grep',
      command: 'rg -n foo src',
    });
    expect(classifyTool({ name: 'shell', args: { command: ['bash', '-lc', 'cargo test'] } })).toMatchObject({ kind: 'terminal' });
    // A file printed by a shell is plain text: the terminal processor, not the editor view's.
    expect(classifyTool({ name: 'exec_command', args: { cmd: 'sed -n 1,80p src/a.rs' } }).kind).toBe('terminal');
    const patch = '*** Begin Patch\n*** Update File: src/a.rs\n@@\n-a\n+b\n*** End Patch';
    expect(classifyTool({ name: 'apply_patch', args: { input: patch } })).toMatchObject({ kind: 'edit_file', path: 'src/a.rs' });
    expect(classifyTool({ name: 'replace', args: { file_path: '/w/b.ts', old_string: 'a', new_string: 'b' } })).toMatchObject({
      kind: 'edit_file',
      path: '/w/b.ts',
    });
    expect(classifyTool({ name: 'MultiEdit', args: { file_path: 'c.py', edits: [] } })).toMatchObject({ kind: 'edit_file', path: 'c.py' });
    expect(classifyTool({ name: 'LS', args: { path: 'src' } })).toMatchObject({ kind: 'list_dir', path: 'src' });
    expect(classifyTool({ name: 'TodoWrite', args: { todos: [] } }).kind).toBe('other');
  });
});

describe('per-tool processors', () => {
  it('read_file: outlines the definitions in view and keeps ranges that mention conversation terms', async () => {
    const extractor = await createSnippetExtractor();
    const output =
      '[File: /repo/stats.py (9 lines total)]\n1:def mean(values):\n2:    total = sum(values)\n3:    return total / len(values)\n4:\n5:\n6:class Stats:\n7:    def median(self, values):\n8:        ordered = sorted(values)\n9:        return ordered[len(ordered) // 2]\n';
    const out = processReadFile({
      ...input('open', { command: 'open stats.py' }, output),
      outline: extractor.outline,
      relevantTerms: new Set(['median']),
    });
    expect(out.summary).toContain('/repo/stats.py lines 1-9 of 9');
    expect(out.summary).toMatch(/function mean 1-3/);
    expect(out.summary).toMatch(/class Stats 6-9/);
    expect(out.summary).toContain('7:    def median(self, values):');
    expect(out.summary).not.toContain('total = sum(values)');
  });

  it('read_file: the digest keeps the last two error-looking lines of the view, numbered as shown', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `${i + 1}:    value_${i} = compute(${i})`);
    rows[9] = '10:    raise KeyError(name)';
    rows[23] = '24:    except ValueError:';
    rows[30] = '31:        log.error("bad input")';
    const output = `[File: /repo/server.py (40 lines total)]\n${rows.join('\n')}\n`;
    const out = processReadFile(input('open', { command: 'open server.py' }, output));
    expect(out.summary).toContain('/repo/server.py lines 1-40 of 40');
    expect(out.summary).toContain('24:    except ValueError:');
    expect(out.summary).toContain('31:        log.error("bad input")');
    expect(out.summary).not.toContain('raise KeyError');
    expect(out.summary).not.toContain('compute(');
  });

  it('grep: reports match and file counts, the busiest files and the first matches', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `src/${i % 3 === 0 ? 'a' : 'b'}.ts:${i + 1}:  const foo = ${i};`);
    const out = processGrep(input('grep', { pattern: 'foo' }, lines.join('\n')));
    expect(out.summary).toContain('30 matches in 2 files');
    expect(out.summary).toContain('top files: src/b.ts (20), src/a.ts (10)');
    expect(out.summary.split('\n').filter((l) => l.includes('const foo')).length).toBe(5);
  });

  it('terminal: keeps the exit code, head, tail and error lines of a long output', () => {
    const body = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    body.splice(20, 0, 'AssertionError: expected 2 got 3');
    const out = processTerminal(input('bash', { command: 'pytest' }, body.join('\n'), { exitCode: 1 }));
    expect(out.summary).toContain('exit 1');
    expect(out.summary).toContain('line 0');
    expect(out.summary).toContain('line 49');
    expect(out.summary).toContain('[... 45 lines ...]');
    expect(out.summary).toContain('AssertionError: expected 2 got 3');
    expect(out.errors).toEqual(['AssertionError: expected 2 got 3']);
  });

  it('list_dir: counts entries and directories and names the first ones', () => {
    const out = processListDir(input('list_dir', { path: '.' }, 'src/\ntests/\nREADME.md\nsetup.py'));
    expect(out.summary).toBe('4 entries, 2 directories: src/ tests/ README.md setup.py');
  });

  it('edit_file: names the file and lines and summarizes a diff', () => {
    const diff =
      'diff --git a/stats.py b/stats.py\n--- a/stats.py\n+++ b/stats.py\n@@ -1 +1,3 @@\n def mean(v):\n+    if not v:\n+        return None\n-    pass\n';
    const out = processEditFile(input('apply_patch', { path: 'stats.py', patch: diff }, 'Applied.'));
    expect(out.summary).toContain('edited stats.py');
    expect(out.summary).toContain('diff: stats.py +2 -1');
    const swe = processEditFile({
      ...input('edit', { command: 'edit 3:4\nx\nend_of_edit' }, 'Your proposed edit has introduced new syntax error(s).'),
      intent: { kind: 'edit_file', path: '/repo/a.py', lines: { start: 3, end: 4 } },
    });
    expect(swe.summary).toContain('edited /repo/a.py lines 3-4');
    expect(swe.errors[0]).toContain('syntax error');
  });

  it('dispatches by kind and says so when a tool printed nothing', () => {
    expect(processToolOutput(input('bash', { command: 'true' }, '   ')).summary).toBe('(no output)');
    expect(processToolOutput(input('bash', { command: 'ls' }, 'a\nb')).summary).toContain('2 entries');
  });

  it('finds error lines, normalized', () => {
    expect(findErrorLines('ok\n  Traceback (most recent call last):\nbash: foo: command not found')).toEqual([
      'Traceback (most recent call last):',
      'bash: foo: command not found',
    ]);
  });
});
