import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBaton } from '../helpers/cli.js';
import { runHookBin } from './helpers/hook-bin.js';
import { codexHooksFeatureOn, withCodexHooksFeature } from '../../src/hooks/index.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

const read = (file: string) =>
  JSON.parse(readFileSync(file, 'utf8')) as {
    hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string; timeout?: number; name?: string }> }>>;
    [key: string]: unknown;
  };

describe('baton hooks install / uninstall / status', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('merges into existing Claude settings: the user’s hooks and settings stay, a backup and a diff are shown, a second install changes nothing', async () => {
    ws = makeHookWorkspace({ baton: false });
    const settings = path.join(ws.dir, '.claude/settings.json');
    mkdirSync(path.dirname(settings));
    const mine = {
      permissions: { allow: ['Bash(ls:*)'] },
      hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] }] },
    };
    writeFileSync(settings, JSON.stringify(mine));
    const home = path.join(ws.dir, '.home');

    const first = await runBaton(['hooks', 'install', '--client', 'claude'], { cwd: ws.dir, env: { HOME: home } });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`+++ ${settings}`);
    const backup = /previous content saved to (\S+)\)/.exec(first.stdout)?.[1] ?? '';
    expect(backup.startsWith(path.join(ws.dir, '.baton/hooks/backups/'))).toBe(true);
    expect(JSON.parse(readFileSync(backup, 'utf8'))).toEqual(mine);
    const written = read(settings);
    expect(written.permissions).toEqual(mine.permissions);
    expect(written.hooks.PostToolUse?.[0]).toEqual(mine.hooks.PostToolUse[0]);
    // The user's PostToolUse stays; Baton registers no per-tool-call event (issue 37).
    expect(Object.keys(written.hooks).sort()).toEqual(['PostToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'StopFailure']);
    expect(written.hooks.PostToolUse).toEqual(mine.hooks.PostToolUse);
    const baton = written.hooks.SessionStart?.[0]?.hooks[0];
    expect(baton?.command).toMatch(/bin\/baton\.js hook session-start --client claude$/);
    expect(written.hooks.SessionEnd?.[0]?.hooks[0]?.timeout).toBeLessThanOrEqual(2);

    const second = await runBaton(['hooks', 'install', '--client', 'claude'], { cwd: ws.dir, env: { HOME: home } });
    expect(second.stdout).toContain('nothing to change');
    expect(read(settings)).toEqual(written);

    const status = await runBaton(['hooks', 'status', '--client', 'claude', '--json'], { cwd: ws.dir, env: { HOME: home } });
    expect(status.code).toBe(0);
    expect(status.json<{ active: boolean; scopes: Array<{ scope: string; missing: string[]; installed: string[] }> }>()).toMatchObject({
      active: true,
      scopes: [
        { scope: 'project', missing: [] },
        { scope: 'user', installed: [] },
      ],
    });

    const removed = await runBaton(['hooks', 'uninstall', '--client', 'claude'], { cwd: ws.dir, env: { HOME: home } });
    expect(removed.code).toBe(0);
    expect(readFileSync(settings, 'utf8')).toBe(JSON.stringify(mine));
    expect((await runBaton(['hooks', 'status', '--client', 'claude'], { cwd: ws.dir, env: { HOME: home } })).code).toBe(1);
  });

  it('calls the project’s own baton through $CLAUDE_PROJECT_DIR / $GEMINI_PROJECT_DIR when the project has one', async () => {
    ws = makeHookWorkspace();
    mkdirSync(path.join(ws.dir, 'node_modules/.bin'), { recursive: true });
    symlinkSync(path.resolve('bin/baton.js'), path.join(ws.dir, 'node_modules/.bin/baton'));
    const env = { HOME: path.join(ws.dir, '.home') };
    await runBaton(['hooks', 'install', '--client', 'claude'], { cwd: ws.dir, env });
    await runBaton(['hooks', 'install', '--client', 'gemini'], { cwd: ws.dir, env });
    expect(read(path.join(ws.dir, '.claude/settings.json')).hooks.Stop?.[0]?.hooks[0]?.command).toBe(
      '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/baton hook stop --client claude',
    );
    const geminiHooks = read(path.join(ws.dir, '.gemini/settings.json')).hooks;
    expect(Object.keys(geminiHooks)).toEqual(['SessionStart', 'BeforeAgent', 'AfterAgent', 'SessionEnd']);
    expect(geminiHooks.AfterAgent?.[0]).toMatchObject({
      matcher: '',
      hooks: [{ command: '$GEMINI_PROJECT_DIR/node_modules/.bin/baton hook stop --client gemini', timeout: 10000, name: 'baton-stop' }],
    });
  });

  it('upgrades an older install: the per-prompt, per-tool-call and pre-compaction bindings go, the user’s own hooks on those events stay, and the old commands still exit 0', async () => {
    ws = makeHookWorkspace();
    const settings = path.join(ws.dir, '.claude/settings.json');
    mkdirSync(path.dirname(settings));
    const old = (event: string) => ({
      type: 'command',
      command: `${path.resolve('bin/baton.js')} hook ${event} --client claude`,
      timeout: 5,
    });
    const mine = { type: 'command', command: 'echo mine' };
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          SessionStart: [{ matcher: '', hooks: [old('session-start')] }],
          UserPromptSubmit: [{ matcher: '', hooks: [old('prompt')] }],
          PostToolUse: [{ matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash', hooks: [old('post-tool'), mine] }],
          PostToolUseFailure: [{ matcher: '', hooks: [old('post-tool')] }],
          PreCompact: [{ matcher: '', hooks: [old('pre-compact')] }],
          Stop: [{ matcher: '', hooks: [old('stop')] }],
          SessionEnd: [{ matcher: '', hooks: [old('session-end')] }],
        },
      }),
    );
    const env = { HOME: path.join(ws.dir, '.home') };
    expect((await runBaton(['hooks', 'install', '--client', 'claude'], { cwd: ws.dir, env })).code).toBe(0);
    const hooks = read(settings).hooks;
    expect(Object.keys(hooks).sort()).toEqual(['PostToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'StopFailure']);
    expect(hooks.PostToolUse).toEqual([{ matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash', hooks: [mine] }]);

    // A session still running with the old settings: its per-call hooks answer nothing and exit 0.
    const payload = JSON.stringify({ session_id: 'old', cwd: ws.dir, hook_event_name: 'UserPromptSubmit', prompt: 'hi' });
    for (const event of ['prompt', 'post-tool', 'pre-compact']) {
      const run = await runHookBin(['hook', event, '--client', 'claude'], payload, ws.dir, env);
      expect([run.code, run.stdout, run.stderr]).toEqual([0, '', '']);
    }
  });

  it('writes Codex’s hooks.json and turns [features] hooks on in config.toml, keeping the rest; --dry-run writes nothing', async () => {
    ws = makeHookWorkspace();
    const codexHome = path.join(ws.dir, '.codex-home');
    mkdirSync(codexHome);
    const toml = 'model = "gpt-5.5"\n\n[features]\nweb_search = true\n\n[projects."/x"]\ntrust_level = "trusted"\n';
    writeFileSync(path.join(codexHome, 'config.toml'), toml);
    const env = { HOME: ws.dir, CODEX_HOME: codexHome };
    const dry = await runBaton(['hooks', 'install', '--client', 'codex', '--scope', 'user', '--dry-run', '--json'], { cwd: ws.dir, env });
    expect(dry.json<{ dry_run: boolean; files: Array<{ changed: boolean }> }>()).toMatchObject({
      dry_run: true,
      files: [{ changed: true }, { changed: true }],
    });
    expect(readFileSync(path.join(codexHome, 'config.toml'), 'utf8')).toBe(toml);

    const run = await runBaton(['hooks', 'install', '--client', 'codex', '--scope', 'user'], { cwd: ws.dir, env });
    expect(run.stdout).toContain('/hooks');
    expect(run.stdout).toContain('--dangerously-bypass-hook-trust');
    expect(readFileSync(path.join(codexHome, 'config.toml'), 'utf8')).toBe(
      'model = "gpt-5.5"\n\n[features]\nhooks = true\nweb_search = true\n\n[projects."/x"]\ntrust_level = "trusted"\n',
    );
    expect(Object.keys(read(path.join(codexHome, 'hooks.json')).hooks)).toEqual(['SessionStart', 'Stop', 'SessionEnd']);
  });

  it('refuses a settings file that is not JSON, naming it, with exit 2 and nothing changed', async () => {
    ws = makeHookWorkspace();
    const settings = path.join(ws.dir, '.gemini/settings.json');
    mkdirSync(path.dirname(settings));
    writeFileSync(settings, '{ "hooks": { // a comment\n } }');
    const run = await runBaton(['hooks', 'install', '--client', 'gemini', '--json'], { cwd: ws.dir, env: { HOME: ws.dir } });
    expect(run.code).toBe(2);
    expect(run.json<{ error: { code: string; file: string } }>().error).toMatchObject({ code: 'INPUT_INVALID', file: settings });
    expect(readFileSync(settings, 'utf8')).toBe('{ "hooks": { // a comment\n } }');
    expect((await runBaton(['hooks', 'install', '--client', 'cursor'], { cwd: ws.dir, env: { HOME: ws.dir } })).code).toBe(2);
    expect(
      (await runBaton(['hooks', 'install', '--client', 'claude', '--scope', 'team'], { cwd: ws.dir, env: { HOME: ws.dir } })).code,
    ).toBe(2);
  });
});

describe('Codex feature flag in config.toml', () => {
  it.each([
    ['', '[features]\nhooks = true\n'],
    ['model = "m"\n', 'model = "m"\n\n[features]\nhooks = true\n'],
    ['[features]\nhooks = false\n', '[features]\nhooks = true\n'],
    ['features.hooks = false\n[x]\na = 1\n', 'features.hooks = true\n[x]\na = 1\n'],
    ['[features] # mine\n\n[other]\nhooks = false\n', '[features] # mine\nhooks = true\n\n[other]\nhooks = false\n'],
  ])('%j becomes %j', (before, after) => {
    expect(withCodexHooksFeature(before)).toBe(after);
    expect(codexHooksFeatureOn(after)).toBe(true);
  });
  it('sees the flag off in another table', () => {
    expect(codexHooksFeatureOn('[other]\nhooks = true\n')).toBe(false);
  });
});
