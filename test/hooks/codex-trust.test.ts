import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBaton } from '../helpers/cli.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

describe('hooks status reads Codex’s hook trust', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('names the events with no [hooks.state] trust record in config.toml, and drops each once trusted', async () => {
    ws = makeHookWorkspace();
    const codexHome = path.join(ws.dir, '.codex-home');
    mkdirSync(codexHome);
    const env = { HOME: ws.dir, CODEX_HOME: codexHome };
    expect((await runBaton(['hooks', 'install', '--client', 'codex', '--scope', 'user'], { cwd: ws.dir, env })).code).toBe(0);
    type Status = { scopes: Array<{ scope: string; untrusted?: string[] }> };
    const status = async () => (await runBaton(['hooks', 'status', '--client', 'codex', '--json'], { cwd: ws.dir, env })).json<Status>();
    expect((await status()).scopes.find((s) => s.scope === 'user')?.untrusted).toEqual(['SessionStart', 'Stop', 'SessionEnd']);
    const text = await runBaton(['hooks', 'status', '--client', 'codex'], { cwd: ws.dir, env });
    expect(text.stdout).toContain('Codex has not trusted SessionStart, Stop, SessionEnd');

    // What Codex writes once the user trusts hooks in /hooks (one table per handler).
    const hooksFile = path.join(codexHome, 'hooks.json');
    for (const label of ['session_start', 'stop'])
      appendFileSync(path.join(codexHome, 'config.toml'), `\n[hooks.state."${hooksFile}:${label}:0:0"]\ntrusted_hash = "sha256:00ff"\n`);
    expect((await status()).scopes.find((s) => s.scope === 'user')?.untrusted).toEqual(['SessionEnd']);
  });
});
