/**
 * The one table of agent tools, from call shapes written here after the real sessions in
 * shared/fixtures/agent-sessions (short snippets, no fixture copied): each client's tools with
 * their kind, key argument, paths, command, plan items and change size.
 */
import { describe, expect, it } from 'vitest';
import { describeToolCall, formatToolCall, TOOL_TABLE } from '../../src/vocabulary/index.js';

describe('Claude Code tools', () => {
  it('reads Read, Write, Edit, MultiEdit and NotebookEdit with their path and change size', () => {
    expect(describeToolCall('Read', { file_path: '/repo/src/a.ts', offset: 10, limit: 40 })).toEqual({
      kind: 'read',
      key: '/repo/src/a.ts',
      paths: ['/repo/src/a.ts'],
    });
    expect(describeToolCall('Write', { file_path: 'C:\\proj\\README.md', content: '# T\n\nbody\n' })).toMatchObject({
      kind: 'write',
      paths: ['C:\\proj\\README.md'],
      change: { removed: 0, added: 3 },
    });
    expect(
      describeToolCall('Edit', { file_path: 'src/a.py', old_string: 'x = 1\ny = 2\nz = 3', new_string: 'x = 2', replace_all: false }),
    ).toMatchObject({ kind: 'edit', key: 'src/a.py', paths: ['src/a.py'], change: { removed: 3, added: 1 } });
    expect(
      describeToolCall('MultiEdit', {
        file_path: 'src/b.ts',
        edits: [
          { old_string: 'a', new_string: 'b\nc' },
          { old_string: 'd\ne', new_string: 'f' },
        ],
      }),
    ).toMatchObject({ kind: 'edit', paths: ['src/b.ts'], change: { removed: 3, added: 3 } });
    expect(describeToolCall('NotebookEdit', { notebook_path: 'n.ipynb', new_source: 'print(1)\nprint(2)', cell_id: 'c1' })).toMatchObject({
      kind: 'edit',
      paths: ['n.ipynb'],
      change: { removed: 0, added: 2 },
    });
  });

  it('reads Bash and PowerShell as shells, and a plain read or search command as what it does', () => {
    expect(describeToolCall('Bash', { command: 'npm test 2>&1', description: 'Run the tests', timeout: 60000 })).toEqual({
      kind: 'shell',
      key: 'npm test 2>&1',
      paths: [],
      command: 'npm test 2>&1',
    });
    expect(describeToolCall('Bash', { command: 'cat /home/u/flake.nix' })).toMatchObject({ kind: 'read', paths: ['/home/u/flake.nix'] });
    expect(describeToolCall('Bash', { command: 'grep -rn "TODO" src | head -20' })).toMatchObject({ kind: 'search' });
    expect(describeToolCall('Bash', { command: 'cd /repo && pytest -q' })).toMatchObject({
      kind: 'shell',
      command: 'cd /repo && pytest -q',
    });
    expect(describeToolCall('PowerShell', { command: 'docker exec odoo18 odoo --stop-after-init', description: 'Upgrade' })).toMatchObject({
      kind: 'shell',
      key: 'docker exec odoo18 odoo --stop-after-init',
    });
  });

  it('reads Glob, Grep and LS as searches with their pattern and place', () => {
    expect(describeToolCall('Glob', { pattern: '**/*.test.ts', path: 'src' })).toMatchObject({
      kind: 'search',
      key: '**/*.test.ts in src',
    });
    expect(describeToolCall('Grep', { pattern: 'firstMonth', output_mode: 'content', '-n': true })).toMatchObject({
      kind: 'search',
      key: 'firstMonth',
      paths: [],
    });
    expect(describeToolCall('LS', { path: '/repo/src' })).toMatchObject({ kind: 'search', listing: true, key: '/repo/src' });
  });

  it('reads TodoWrite, TaskCreate and TaskUpdate as plan calls with their items', () => {
    expect(
      describeToolCall('TodoWrite', {
        todos: [
          { content: 'Write the failing test', status: 'completed', activeForm: 'Writing the failing test' },
          { content: 'Fix the parser', status: 'in_progress', activeForm: 'Fixing the parser' },
          { id: '3', content: 'Update the docs', status: 'pending', priority: 'high' },
        ],
      }),
    ).toMatchObject({
      kind: 'plan',
      planMode: 'replace',
      key: '3 items, 2 open',
      plan: [
        { text: 'Write the failing test', status: 'completed' },
        { text: 'Fix the parser', status: 'in_progress' },
        { text: 'Update the docs', status: 'pending', id: '3' },
      ],
    });
    expect(
      describeToolCall('TaskCreate', { subject: 'Create the model', description: 'models/x.py', activeForm: 'Creating' }),
    ).toMatchObject({
      kind: 'plan',
      planMode: 'add',
      plan: [{ text: 'Create the model', status: 'pending' }],
    });
    expect(describeToolCall('TaskUpdate', { taskId: '6', status: 'completed' })).toMatchObject({
      kind: 'plan',
      planMode: 'update',
      key: '#6 completed',
      plan: [{ id: '6', status: 'completed', text: '' }],
    });
  });

  it('reads Task and Agent as sub-agents, WebFetch and WebSearch as the web', () => {
    expect(describeToolCall('Task', { description: 'Find the launch command', prompt: 'Look in /usr/share' })).toMatchObject({
      kind: 'task',
      key: 'Find the launch command',
    });
    expect(describeToolCall('Agent', { description: 'Explore', subagent_type: 'Explore', prompt: 'x' })).toMatchObject({ kind: 'task' });
    expect(describeToolCall('WebFetch', { url: 'https://example.org/a', prompt: 'summarize' })).toMatchObject({
      kind: 'web',
      key: 'https://example.org/a',
    });
    expect(describeToolCall('WebSearch', { query: 'vite 6 changelog' })).toMatchObject({ kind: 'web', key: 'vite 6 changelog' });
  });
});

describe('Codex CLI tools', () => {
  it('unwraps the first shell generation: `shell` with an argv array and `bash -lc "…"`', () => {
    expect(describeToolCall('shell', JSON.stringify({ command: ['bash', '-lc', 'pytest -q'], timeout_ms: 120000 }))).toEqual({
      kind: 'shell',
      key: 'pytest -q',
      paths: [],
      command: 'pytest -q',
    });
    expect(describeToolCall('shell', { command: ['git', 'commit', '-m', 'fix: the parser'] })).toMatchObject({
      command: "git commit -m 'fix: the parser'",
    });
    expect(describeToolCall('shell', { command: ['bash', '-lc', "sed -n '1,200p' src/app.py"] })).toMatchObject({
      kind: 'read',
      paths: ['src/app.py'],
    });
  });

  it('reads apply_patch passed through `shell`, as argv or heredoc, with the paths parsed from the patch', () => {
    const patch =
      '*** Begin Patch\n*** Update File: opk/cli.py\n@@\n-old line\n+new line\n+second\n*** Add File: docs/a.md\n+# A\n*** End Patch';
    expect(describeToolCall('shell', { command: ['apply_patch', patch] })).toMatchObject({
      kind: 'edit',
      paths: ['opk/cli.py', 'docs/a.md'],
      key: 'apply_patch opk/cli.py, docs/a.md',
      change: { removed: 1, added: 3 },
    });
    expect(describeToolCall('shell', { command: ['bash', '-lc', `apply_patch << 'PATCH'\n${patch}\nPATCH`] })).toMatchObject({
      kind: 'edit',
      paths: ['opk/cli.py', 'docs/a.md'],
    });
  });

  it('reads the second generation: shell_command with a string, apply_patch as a custom tool with the patch text', () => {
    expect(describeToolCall('shell_command', { command: 'rg --files', workdir: '/home/u/proj' })).toMatchObject({
      kind: 'search',
      command: 'rg --files',
    });
    const added = '*** Begin Patch\n*** Add File: specs/spec.md\n+# Spec\n+\n+Body\n*** End Patch';
    expect(describeToolCall('apply_patch', added)).toMatchObject({
      kind: 'write',
      paths: ['specs/spec.md'],
      change: { removed: 0, added: 3 },
    });
    const moved = '*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-x\n+y\n*** Delete File: c.py\n*** End Patch';
    expect(describeToolCall('apply_patch', { input: moved })).toMatchObject({ kind: 'edit', paths: ['a.py', 'b.py', 'c.py'] });
  });

  it('reads the third generation: exec_command with `cmd` and write_stdin to a running session', () => {
    expect(describeToolCall('exec_command', '{"cmd":"mix precommit","workdir":"/src/app","yield_time_ms":120000}')).toEqual({
      kind: 'shell',
      key: 'mix precommit',
      paths: [],
      command: 'mix precommit',
    });
    expect(describeToolCall('write_stdin', { session_id: 12430, chars: '', yield_time_ms: 120000 })).toMatchObject({
      kind: 'shell',
      key: 'write_stdin 12430',
    });
  });

  it('reads update_plan steps as plan items', () => {
    expect(
      describeToolCall('update_plan', {
        explanation: 'Docs next',
        plan: [
          { step: 'Add printer models', status: 'completed' },
          { step: 'Update the docs', status: 'in_progress' },
          { step: 'Run tests', status: 'pending' },
        ],
      }),
    ).toMatchObject({
      kind: 'plan',
      planMode: 'replace',
      plan: [
        { text: 'Add printer models', status: 'completed' },
        { text: 'Update the docs', status: 'in_progress' },
        { text: 'Run tests', status: 'pending' },
      ],
    });
  });
});

describe('Gemini CLI tools', () => {
  it('reads read_file with absolute_path or file_path, write_file, replace and read_many_files', () => {
    expect(describeToolCall('read_file', { absolute_path: 'C:\\dev\\app\\package.json' })).toMatchObject({
      kind: 'read',
      paths: ['C:\\dev\\app\\package.json'],
    });
    expect(describeToolCall('read_file', { file_path: 'src/App.jsx', limit: 50 })).toMatchObject({ kind: 'read', key: 'src/App.jsx' });
    expect(describeToolCall('write_file', { file_path: 'notes.txt', content: 'a\nb' })).toMatchObject({
      kind: 'write',
      change: { removed: 0, added: 2 },
    });
    expect(
      describeToolCall('replace', {
        file_path: 'src/App.jsx',
        old_string: 'a',
        new_string: 'b\nc',
        instruction: 'rename',
        expected_replacements: 1,
      }),
    ).toMatchObject({ kind: 'edit', paths: ['src/App.jsx'], change: { removed: 1, added: 2 } });
    expect(describeToolCall('read_many_files', { paths: ['a.jsx', 'b.jsx'] })).toMatchObject({ kind: 'read', paths: ['a.jsx', 'b.jsx'] });
  });

  it('reads run_shell_command, the searches, list_directory, the web tools and write_todos', () => {
    expect(describeToolCall('run_shell_command', { command: 'npm run build', description: 'Build' })).toMatchObject({
      kind: 'shell',
      command: 'npm run build',
    });
    expect(describeToolCall('search_file_content', { pattern: 'document.title', dir_path: 'src' })).toMatchObject({
      kind: 'search',
      key: 'document.title in src',
    });
    expect(describeToolCall('glob', { pattern: 'src/**/*.jsx' })).toMatchObject({ kind: 'search', key: 'src/**/*.jsx' });
    expect(describeToolCall('list_directory', { dir_path: 'src/' })).toMatchObject({ kind: 'search', listing: true });
    expect(describeToolCall('web_fetch', { prompt: 'https://example.org/x summarize' })).toMatchObject({ kind: 'web' });
    expect(describeToolCall('google_web_search', { query: 'largest cities' })).toMatchObject({ kind: 'web', key: 'largest cities' });
    expect(
      describeToolCall('write_todos', {
        todos: [
          { description: 'Plan the component', status: 'in_progress' },
          { description: 'Add a route', status: 'pending' },
        ],
      }),
    ).toMatchObject({ kind: 'plan', plan: [{ text: 'Plan the component', status: 'in_progress' }, { text: 'Add a route' }] });
  });
});

describe('Copilot CLI tools', () => {
  it('reads view, create, str_replace_editor by its command, and powershell', () => {
    expect(describeToolCall('view', { path: '/Users/u/demoapi/src' })).toMatchObject({ kind: 'read', paths: ['/Users/u/demoapi/src'] });
    expect(describeToolCall('create', { path: '.github/instructions.md', file_text: '# I\nx' })).toMatchObject({
      kind: 'write',
      change: { removed: 0, added: 2 },
    });
    expect(describeToolCall('str_replace_editor', { command: 'view', path: 'main.py' })).toMatchObject({ kind: 'read' });
    expect(describeToolCall('str_replace_editor', { command: 'create', path: '.gitignore', file_text: 'venv/\n' })).toMatchObject({
      kind: 'write',
      paths: ['.gitignore'],
    });
    expect(describeToolCall('str_replace_editor', { command: 'str_replace', path: 'main.py', old_str: 'a', new_str: 'b' })).toMatchObject({
      kind: 'edit',
      change: { removed: 1, added: 1 },
    });
    expect(describeToolCall('powershell', { command: 'python --version', description: 'x', sessionId: 's', async: false })).toMatchObject({
      kind: 'shell',
      command: 'python --version',
    });
    expect(describeToolCall('report_intent', { intent: 'Exploring codebase structure' })).toMatchObject({
      kind: 'other',
      key: 'Exploring codebase structure',
    });
  });
});

describe('OpenHands and SWE-agent tools', () => {
  it('reads OpenHands execute_bash, str_replace_editor and execute_ipython_cell', () => {
    expect(describeToolCall('execute_bash', { command: 'python reproduce.py' })).toMatchObject({
      kind: 'shell',
      command: 'python reproduce.py',
    });
    expect(describeToolCall('str_replace_editor', { command: 'insert', path: '/w/a.py', insert_line: 3, new_str: 'x' })).toMatchObject({
      kind: 'edit',
      paths: ['/w/a.py'],
    });
    expect(describeToolCall('execute_ipython_cell', { code: 'import os\nprint(os.getcwd())' })).toMatchObject({ kind: 'shell' });
  });

  it('reads SWE-agent text actions: open, edit with its line range, create, search_dir, and other commands as shell', () => {
    expect(describeToolCall('open', { command: 'open src/fields.py 40' })).toMatchObject({ kind: 'read', paths: ['src/fields.py'] });
    expect(describeToolCall('edit', { command: 'edit 12:15\n    return x\nend_of_edit' })).toMatchObject({
      kind: 'edit',
      lines: { start: 12, end: 15 },
      change: { removed: 4, added: 1 },
    });
    expect(describeToolCall('create', { command: 'create reproduce.py' })).toMatchObject({ kind: 'write', paths: ['reproduce.py'] });
    expect(describeToolCall('search_dir', { command: 'search_dir "TimeDelta" src' })).toMatchObject({ kind: 'search' });
    expect(describeToolCall('python', { command: 'python reproduce.py' })).toMatchObject({ kind: 'shell', command: 'python reproduce.py' });
    expect(describeToolCall('find_file', { file_name: 'missing_colon.py' })).toMatchObject({ kind: 'search', key: 'missing_colon.py' });
  });
});

describe('the table', () => {
  it('never reads a name from Object.prototype as a tool', () => {
    expect(describeToolCall('constructor', {})).toEqual({ kind: 'other', paths: [] });
    expect(describeToolCall('__proto__', { path: 'a' })).toMatchObject({ kind: 'other', paths: ['a'] });
  });

  it('reads an unknown tool from its arguments and never throws on odd input', () => {
    expect(describeToolCall('mcp__github__create_issue', { title: 'Bug' })).toEqual({ kind: 'other', paths: [], key: 'Bug' });
    expect(describeToolCall('Edit', null)).toEqual({ kind: 'edit', paths: [] });
    expect(describeToolCall('shell', '{not json')).toMatchObject({ kind: 'shell' });
    expect(describeToolCall('TodoWrite', { todos: 'nonsense' })).toEqual({ kind: 'plan', paths: [] });
  });

  it('lists a kind for every client tool it names', () => {
    const kinds = new Set(Object.values(TOOL_TABLE).map((e) => e.kind));
    expect([...kinds].sort()).toEqual(['edit', 'other', 'plan', 'read', 'search', 'shell', 'task', 'web', 'write']);
  });

  it('formats an old call compactly: the name, the key argument and the size of an edit', () => {
    const edit = describeToolCall('Edit', { file_path: 'src/a.py', old_string: 'a\nb\nc', new_string: Array(12).fill('x').join('\n') });
    expect(formatToolCall('Edit', edit)).toBe('Edit src/a.py (-3 +12 lines)');
    expect(formatToolCall('Bash', describeToolCall('Bash', { command: 'npm test' }))).toBe('Bash npm test');
    expect(formatToolCall('submit', describeToolCall('submit', {}))).toBe('submit');
  });
});
