import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBaton } from '../helpers/cli.js';
import { claude } from './helpers/payloads.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

describe('Baton’s own files are never changes to review', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('the settings its install wrote, .baton/ (not ignored) and old .baton-backup copies stay out of the context and the next step; the user’s own edit of the settings is shown', async () => {
    ws = makeHookWorkspace();
    // A project that does not ignore .baton/, with a settings file of its own committed.
    writeFileSync(path.join(ws.dir, '.gitignore'), 'node_modules/\n');
    ws.write('.claude/settings.json', '{"model":"opus"}\n');
    execFileSync('git', ['add', '.'], { cwd: ws.dir });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'settings'], { cwd: ws.dir });
    ws.write('.claude/settings.json.baton-backup', '{}\n');
    const install = await runBaton(['hooks', 'install', '--client', 'claude'], { cwd: ws.dir, env: { HOME: path.join(ws.dir, '.home') } });
    expect(install.code, install.stderr).toBe(0);
    ws.write('.gemini/settings.json', '{}\n');
    await runBaton(['hooks', 'install', '--client', 'gemini'], { cwd: ws.dir, env: { HOME: path.join(ws.dir, '.home') } });

    const context = ws.context(await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'one', cwd: ws.dir })));
    expect(context ?? '').not.toContain('Uncommitted changes');
    expect(context ?? '').not.toContain('settings.json');
    expect(context ?? '').not.toContain('Review the uncommitted');

    ws.write('.claude/settings.json', `${JSON.stringify({ model: 'sonnet' })}\n`);
    const after = ws.context(await ws.hook('claude', 'session-start', claude.sessionStart({ session: 'two', cwd: ws.dir })));
    expect(after).toContain('- .claude/settings.json (changed)');
    expect(after).not.toContain('.gemini/settings.json');
    expect(after).toContain('Review the uncommitted file above');
  });
});
