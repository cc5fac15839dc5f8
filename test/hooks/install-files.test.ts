import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBaton } from '../helpers/cli.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const mode = (file: string) => statSync(file).mode & 0o777;

describe('hooks install / uninstall keep the user’s files as they were (modes, links, bytes, backups)', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());
  const env = () => ({ HOME: path.join(ws.dir, '.home'), CODEX_HOME: path.join(ws.dir, '.home/.codex') });
  const baton = (...args: string[]) => runBaton(['hooks', ...args], { cwd: ws.dir, env: env() });

  it('a mode-600 settings file stays 600 after install and uninstall; its backup is 600, kept under .baton/hooks/backups, recorded with checksums', async () => {
    ws = makeHookWorkspace();
    const settings = path.join(ws.dir, '.claude/settings.json');
    mkdirSync(path.dirname(settings));
    const original = '{\n    "env": { "ANTHROPIC_API_KEY": "sk-ant-secret" },\n    "model": "opus"\n}\n';
    writeFileSync(settings, original, { mode: 0o600 });
    chmodSync(settings, 0o600);

    const install = await baton('install', '--client', 'claude', '--json');
    expect(install.code).toBe(0);
    expect(mode(settings)).toBe(0o600);
    expect(readFileSync(settings, 'utf8')).toMatch(/^\{\n {4}"env"/);
    const backup = install.json<{ files: Array<{ backup?: string }> }>().files[0]?.backup ?? '';
    expect(path.dirname(backup)).toBe(path.join(ws.dir, '.baton/hooks/backups'));
    expect(readFileSync(backup, 'utf8')).toBe(original);
    expect(mode(backup)).toBe(0o600);
    const record = JSON.parse(readFileSync(path.join(ws.dir, '.baton/hooks/installed.json'), 'utf8')) as Record<string, unknown>;
    expect(record[settings]).toMatchObject({
      created: false,
      backup,
      originalSha256: sha(original),
      writtenSha256: sha(readFileSync(settings, 'utf8')),
    });

    expect((await baton('uninstall', '--client', 'claude')).code).toBe(0);
    expect(readFileSync(settings, 'utf8')).toBe(original);
    expect(mode(settings)).toBe(0o600);
  });

  it('refuses a read-only settings file with a message naming it, and changes nothing', async () => {
    ws = makeHookWorkspace();
    const settings = path.join(ws.dir, '.gemini/settings.json');
    mkdirSync(path.dirname(settings));
    writeFileSync(settings, '{}\n');
    chmodSync(settings, 0o444);
    const run = await baton('install', '--client', 'gemini');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${settings} is read-only`);
    expect(readFileSync(settings, 'utf8')).toBe('{}\n');
    expect(existsSync(path.join(ws.dir, '.baton/hooks/backups'))).toBe(false);
  });

  it('writes through a symlinked settings file (the link stays a link) and uninstall restores the target’s bytes', async () => {
    ws = makeHookWorkspace();
    const dotfile = path.join(ws.dir, 'dotfiles/claude.json');
    mkdirSync(path.dirname(dotfile));
    const original = '{"model":"sonnet"}';
    writeFileSync(dotfile, original);
    const settings = path.join(ws.dir, '.claude/settings.json');
    mkdirSync(path.dirname(settings));
    symlinkSync(dotfile, settings);

    expect((await baton('install', '--client', 'claude')).code).toBe(0);
    expect(lstatSync(settings).isSymbolicLink()).toBe(true);
    expect(readFileSync(dotfile, 'utf8')).toContain('baton');
    expect((await baton('uninstall', '--client', 'claude')).code).toBe(0);
    expect(lstatSync(settings).isSymbolicLink()).toBe(true);
    expect(readFileSync(dotfile, 'utf8')).toBe(original);
  });

  it('never overwrites a backup; uninstall after the user’s own edit keeps the edit and the file’s indentation', async () => {
    ws = makeHookWorkspace();
    const settings = path.join(ws.dir, '.claude/settings.json');
    mkdirSync(path.dirname(settings));
    writeFileSync(settings, '{\n\t"model": "opus"\n}\n');
    await baton('install', '--client', 'claude');
    await baton('uninstall', '--client', 'claude');
    expect(readFileSync(settings, 'utf8')).toBe('{\n\t"model": "opus"\n}\n');
    writeFileSync(settings, '{\n\t"model": "sonnet"\n}\n');
    await baton('install', '--client', 'claude');
    const backups = readdirSync(path.join(ws.dir, '.baton/hooks/backups')).map((name) =>
      readFileSync(path.join(ws.dir, '.baton/hooks/backups', name), 'utf8'),
    );
    expect(backups.sort()).toEqual(['{\n\t"model": "opus"\n}\n', '{\n\t"model": "sonnet"\n}\n']);

    const edited = JSON.parse(readFileSync(settings, 'utf8')) as Record<string, unknown>;
    writeFileSync(settings, `${JSON.stringify({ ...edited, permissions: { allow: ['Bash(ls:*)'] } }, null, '\t')}\n`);
    await baton('uninstall', '--client', 'claude');
    expect(readFileSync(settings, 'utf8')).toBe(
      '{\n\t"model": "sonnet",\n\t"permissions": {\n\t\t"allow": [\n\t\t\t"Bash(ls:*)"\n\t\t]\n\t}\n}\n',
    );
  });

  it('uninstall removes what install created: Codex’s .codex/hooks.json, config.toml and the folder', async () => {
    ws = makeHookWorkspace();
    expect((await baton('install', '--client', 'codex')).code).toBe(0);
    expect(existsSync(path.join(ws.dir, '.codex/hooks.json'))).toBe(true);
    expect((await baton('uninstall', '--client', 'codex')).code).toBe(0);
    expect(existsSync(path.join(ws.dir, '.codex'))).toBe(false);
  });
});
