import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { startUiServer } from '../../src/ui/index.js';
import { claude } from '../hooks/helpers/payloads.js';
import { type HookWorkspace, makeHookWorkspace } from '../hooks/helpers/hook-workspace.js';
import { BATON_SAMPLES, PRESET_SAMPLES } from './preset-samples.js';

const BIN = fileURLToPath(new URL('../../bin/baton.js', import.meta.url));

/** The real `baton` process (dist/), with the test runner's environment, as a client runs it. */
function baton(args: string[], cwd: string, input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

const awsKey = PRESET_SAMPLES.find((s) => s.name === 'AWS_SECRET_ACCESS_KEY')?.secret ?? '';
const awsId = BATON_SAMPLES.find((s) => s.name === 'AWS_ACCESS_KEY_ID')?.secret ?? '';
const github = PRESET_SAMPLES.find((s) => s.name === 'GITHUB_TOKEN')?.secret ?? '';
const SECRETS = { awsKey, awsId, github };

function expectNoSecret(where: string, text: string): void {
  for (const [name, secret] of Object.entries(SECRETS)) expect(text.includes(secret), `${name} in ${where}`).toBe(false);
  // No part of the 40-character key either (secretlint once masked 18 of its characters).
  expect(text.includes(awsKey.slice(20)), `the end of the AWS key in ${where}`).toBe(false);
  expect(text, where).not.toContain('[REDACTED:[REDACTED');
}

describe('issue 34: a secret in a failed command stays out of everything Baton writes and shows', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  it('masks it in the ledger (baton export), the next session’s context and the web view', async () => {
    ws = makeHookWorkspace();
    const s = { session: 'leaky', cwd: ws.dir };
    const hook = (event: string, payload: unknown) => baton(['hook', event, '--client', 'claude'], ws.dir, JSON.stringify(payload));
    await hook('session-start', claude.sessionStart(s));
    await hook('prompt', claude.prompt(s, `list the bucket with AWS_SECRET_ACCESS_KEY=${awsKey}`));
    const command = `AWS_ACCESS_KEY_ID=${awsId} AWS_SECRET_ACCESS_KEY=${awsKey} aws s3 ls`;
    await hook(
      'post-tool',
      claude.bashFailure(
        s,
        command,
        255,
        `fatal: could not read https://x-access-token:${github}@github.com (AWS_SECRET_ACCESS_KEY=${awsKey})`,
      ),
    );
    // The hook journal is masked as it is written: it is a file on disk until a fold reads it.
    const journals = path.join(ws.dir, '.baton', 'hooks', 'sessions');
    const lines = readdirSync(journals)
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => readFileSync(path.join(journals, name), 'utf8'))
      .join('');
    expect(lines).toContain('aws s3 ls');
    expectNoSecret('the hook journal', lines);

    await hook('stop', claude.stop(s, `It failed: the key in AWS_SECRET_ACCESS_KEY=${awsKey} is refused.`));
    await hook('session-end', claude.sessionEnd(s));

    const exported = await baton(['export'], ws.dir);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('aws s3 ls');
    expect(exported.stdout).toContain('AWS_SECRET_ACCESS_KEY=[REDACTED:aws]');
    expectNoSecret('baton export', exported.stdout);

    const next = await hook('session-start', claude.sessionStart({ session: 'next', cwd: ws.dir }));
    const context = ws.context(next.stdout) ?? '';
    expect(context).toContain('aws s3 ls');
    expectNoSecret('the next session-start context', context);

    const ledger = await openLedger({ spec: 'sqlite:.baton/agent.db', cwd: ws.dir });
    const ui = await startUiServer({ ledger, port: 0, pollMs: 60_000 });
    try {
      const pages = ['/', '/sessions', '/sessions/claude-leaky', '/tasks/claude-leaky'];
      const html = await Promise.all(pages.map(async (page) => (await fetch(new URL(page, ui.url))).text()));
      expect(html.join('\n')).toContain('aws s3 ls');
      html.forEach((text, i) => expectNoSecret(`baton ui ${pages[i]}`, text));
    } finally {
      await ui.close();
      await ledger.close();
    }
  }, 60_000);
});
