import { appendFile, mkdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentSessionData, getAgentSession, type Ledger, openLedger } from '../../src/ledger/index.js';
import { claudeProjectSlug, importSessions } from '../../src/sessions/index.js';
import { tempDir } from '../helpers/cli.js';
import { FAILED_CODEX_ID, writeFailedCodexRollout } from './failed-codex-rollout.js';

const CART = fileURLToPath(new URL('../fixtures/loop/sessions/claude-cart.jsonl', import.meta.url));
const CART_ID = 'claude-0f0f0f0f-1111-4222-8333-444455556666';

/** The facts of a record an incremental import must agree on with a whole read. */
function facts(data: AgentSessionData | undefined) {
  if (!data) return undefined;
  const { summary: _s, transcript, ...rest } = data;
  const { importedAt: _i, ...t } = transcript ?? { importedAt: 0 };
  return { ...rest, transcript: t };
}

describe('incremental import by offset (real files, a real SQLite ledger)', () => {
  let home: string;
  let workspace: string;
  let env: NodeJS.ProcessEnv;
  let ledger: Ledger;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const t = await tempDir('baton-incr-');
    cleanup = t.cleanup;
    home = path.join(t.dir, 'home');
    workspace = path.join(t.dir, 'project');
    await mkdir(workspace, { recursive: true });
    env = { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: path.join(home, 'claude'), CODEX_HOME: path.join(home, 'codex') };
    env.GEMINI_CLI_HOME = path.join(home, 'gemini');
    env.COPILOT_HOME = path.join(home, 'copilot');
    ledger = await openLedger({ spec: `sqlite:${path.join(home, 'ledger.db')}`, cwd: workspace });
  });
  afterEach(async () => {
    await ledger.close();
    await cleanup();
  });

  /** What a fresh ledger gets from reading the file as it is now, whole. */
  async function wholeRead(id: string): Promise<AgentSessionData | undefined> {
    const fresh = await openLedger({ spec: 'memory', cwd: workspace });
    try {
      await importSessions(fresh, { cwd: workspace, env, now: 1 });
      return (await getAgentSession(fresh, id))?.data;
    } finally {
      await fresh.close();
    }
  }

  it('reads an appended Codex rollout from its offset: a partial last line waits, a result finds its earlier call', async () => {
    const file = await writeFailedCodexRollout(env.CODEX_HOME as string, workspace);
    const whole = await readFile(file, 'utf8');
    // Cut after the call, inside the result's line: the call is open and the last line partial.
    const cut = whole.indexOf('"function_call_output"');
    await writeFile(file, whole.slice(0, cut));
    const first = await importSessions(ledger, { cwd: workspace, env, now: 1 });
    expect(first).toMatchObject({ imported: 1, bytes: cut });
    const id = `codex-${FAILED_CODEX_ID}`;
    expect((await getAgentSession(ledger, id))?.data).toMatchObject({ toolCalls: 1, failures: [] });

    const extra = `${JSON.stringify({ timestamp: '2026-03-01T10:00:09.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'now fix it' } })}\n`;
    await appendFile(file, whole.slice(cut) + extra);
    const size = (await stat(file)).size;
    const lastLineStart = whole.lastIndexOf('\n', cut) + 1;
    const second = await importSessions(ledger, { cwd: workspace, env, now: 1 });
    // Only the bytes after the last whole line read are read again.
    expect(second).toMatchObject({ imported: 1, bytes: size - lastLineStart });
    const data = (await getAgentSession(ledger, id))?.data;
    expect(data).toMatchObject({ toolCalls: 1, turns: 2, lastPrompt: 'now fix it' });
    expect(data?.failures).toEqual([expect.objectContaining({ command: 'npm test', exitCode: 1, turn: 1 })]);
    expect(facts(data)).toEqual(facts(await wholeRead(id)));
  });

  it('reads an appended Claude Code transcript from its offset, the same record as a whole read', async () => {
    const dir = path.join(env.CLAUDE_CONFIG_DIR as string, 'projects', claudeProjectSlug(workspace));
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, '0f0f0f0f-1111-4222-8333-444455556666.jsonl');
    const lines = (await readFile(CART, 'utf8')).split('\n').filter(Boolean);
    for (const n of [4, 7, lines.length]) {
      const before = (await stat(file).catch(() => undefined))?.size ?? 0;
      await writeFile(file, `${lines.slice(0, n).join('\n')}\n`);
      const run = await importSessions(ledger, { cwd: workspace, env, now: 1 });
      expect(run).toMatchObject({ imported: 1, bytes: (await stat(file)).size - before });
    }
    expect(facts((await getAgentSession(ledger, CART_ID))?.data)).toEqual(facts(await wholeRead(CART_ID)));
  });

  it('reads a truncated or rewritten transcript whole', async () => {
    const dir = path.join(env.CLAUDE_CONFIG_DIR as string, 'projects', claudeProjectSlug(workspace));
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, '0f0f0f0f-1111-4222-8333-444455556666.jsonl');
    const text = await readFile(CART, 'utf8');
    await writeFile(file, text);
    await importSessions(ledger, { cwd: workspace, env, now: 1 });
    const full = (await getAgentSession(ledger, CART_ID))?.data;

    // Truncated: smaller than when read.
    const lines = text.split('\n').filter(Boolean);
    await truncate(file, `${lines.slice(0, 3).join('\n')}\n`.length);
    const shrunk = await importSessions(ledger, { cwd: workspace, env, now: 1 });
    expect(shrunk).toMatchObject({ imported: 1, bytes: (await stat(file)).size });
    expect((await getAgentSession(ledger, CART_ID))?.data.toolCalls).toBeLessThan(full?.toolCalls ?? 0);

    // Rewritten and grown: its first bytes changed, so nothing of the earlier read is kept.
    const rewritten = `${lines.slice(0, 3).join('\n').replace('ignores the discount code', 'drops the VAT line')}\n${lines.slice(3).join('\n')}\n`;
    await writeFile(file, rewritten);
    const again = await importSessions(ledger, { cwd: workspace, env, now: 1 });
    expect(again).toMatchObject({ imported: 1, bytes: rewritten.length });
    const data = (await getAgentSession(ledger, CART_ID))?.data;
    expect(data?.transcript?.task).toContain('drops the VAT line');
    expect(facts(data)).toEqual(facts(await wholeRead(CART_ID)));
  });
});
