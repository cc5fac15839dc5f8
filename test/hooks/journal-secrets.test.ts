import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claude } from './helpers/payloads.js';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';

describe('the hook journal', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('holds no secret in clear (redacted on write), and is gone once its session is folded', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'secret-journal', cwd: ws.dir };
    const key = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const dir = path.join(ws.dir, '.baton/hooks/sessions');
    await ws.hook('claude', 'session-start', claude.sessionStart(s));
    await ws.hook('claude', 'prompt', claude.prompt(s, `use the token ${token}`));
    await ws.hook(
      'claude',
      'post-tool',
      claude.bashFailure(s, `AWS_SECRET_ACCESS_KEY=${key} aws s3 ls`, 255, `denied: aws_secret_access_key=${key}`),
    );
    const journal = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
    expect(journal).toHaveLength(1);
    const text = readFileSync(path.join(dir, journal[0] ?? ''), 'utf8');
    expect(text).toContain('aws s3 ls');
    expect(text).toContain('[REDACTED');
    expect(text).not.toContain(key);
    expect(text).not.toContain(token);

    await ws.hook('claude', 'stop', claude.stop(s, 'It failed.'));
    await ws.hook('claude', 'session-end', claude.sessionEnd(s));
    expect(readdirSync(dir).filter((name) => name.endsWith('.jsonl'))).toEqual([]);
    expect((await ws.session('claude-secret-journal'))?.data.failures[0]?.command).not.toContain(key);
  });
});
