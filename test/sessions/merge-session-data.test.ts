import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSessionData } from '../../src/ledger/index.js';
import { mergeSessionData } from '../../src/sessions/light.js';
import { type HookWorkspace, makeHookWorkspace } from '../hooks/helpers/hook-workspace.js';
import { codex } from '../hooks/helpers/payloads.js';
import { FAILED_CODEX_ID, writeFailedCodexRollout } from './failed-codex-rollout.js';

function data(over: Partial<AgentSessionData>): AgentSessionData {
  return {
    client: 'codex',
    clientSessionId: 's1',
    workspace: '/w',
    startedAt: 1_000,
    lastActivityAt: 2_000,
    starts: {},
    turns: 0,
    toolCalls: 0,
    compactions: 0,
    filesCreated: [],
    filesUpdated: [],
    filesDeleted: [],
    failures: [],
    summary: '',
    ...over,
  };
}

const hooks = data({
  origin: 'hooks',
  starts: { startup: 1 },
  turns: 1,
  toolCalls: 2,
  filesCreated: ['measured.ts'],
  failures: [{ command: 'npm test', exitCode: 2, error: 'measured: 3 failed', at: 1_500, turn: 1 }],
  lastReply: 'Stop said this',
  lastActivityAt: 3_000,
});
const transcript = data({
  origin: 'import',
  startedAt: 900,
  lastActivityAt: 2_900,
  turns: 2,
  toolCalls: 5,
  filesUpdated: ['claimed.ts'],
  failures: [
    { command: 'npm run lint', exitCode: 1, at: 1_200, turn: 1 },
    { command: 'npm test', exitCode: 1, error: 'claimed', at: 1_490, turn: 1 },
  ],
  lastPrompt: 'fix the tests',
  lastReply: 'an older reply',
  transcript: { file: '/t.jsonl', ending: 'normal', prompts: 2, skipped: 0, openPlan: ['ship'], importedAt: 3_100 },
});

describe('mergeSessionData: one rule for the import and the hooks’ fold', () => {
  it('measured facts win: the measured files stay and a measured exit code replaces the transcript’s claim; its other failures are added', () => {
    for (const options of [{}, { hooked: true }]) {
      const merged = mergeSessionData(hooks, transcript, options);
      expect(merged.filesCreated).toEqual(['measured.ts']);
      expect(merged.filesUpdated).toEqual([]);
      expect(merged.failures.map((f) => [f.command, f.exitCode, f.error])).toEqual([
        ['npm run lint', 1, undefined],
        ['npm test', 2, 'measured: 3 failed'],
      ]);
    }
  });

  it('otherwise the newest or most complete: counts, earlier start, the transcript’s prompt and plan, the later source’s reply', () => {
    const merged = mergeSessionData(hooks, transcript);
    expect(merged).toMatchObject({ turns: 2, toolCalls: 5, startedAt: 900, lastActivityAt: 3_000, lastPrompt: 'fix the tests' });
    expect(merged.lastReply).toBe('Stop said this');
    expect(merged.transcript?.openPlan).toEqual(['ship']);
    expect(merged.origin).toBe('hooks');
    expect(mergeSessionData(hooks, { ...transcript, lastActivityAt: 4_000, lastReply: 'newer' }).lastReply).toBe('newer');
  });

  it('takes the transcript’s files when the hooks measured none, and replaces a record only an import wrote', () => {
    expect(mergeSessionData({ ...hooks, filesCreated: [] }, transcript).filesUpdated).toEqual(['claimed.ts']);
    const earlier = { ...transcript, turns: 9, failures: [] };
    expect(mergeSessionData(earlier, transcript)).toBe(transcript);
    expect(mergeSessionData(earlier, transcript, { hooked: true }).turns).toBe(9);
  });

  it('forgets a cut-off turn once the transcript has a prompt after it', () => {
    const cut = { ...hooks, cutOff: { error: 'rate_limit', at: 2_000, turn: 1 } };
    expect(mergeSessionData(cut, transcript, { promptAt: 2_500 }).cutOff).toBeUndefined();
    expect(mergeSessionData(cut, transcript, { promptAt: 1_000 }).cutOff).toEqual(cut.cutOff);
  });
});

describe('the hooks’ fold merges by the same rule', () => {
  let ws: HookWorkspace | undefined;
  let home: string | undefined;
  afterEach(() => {
    ws?.cleanup();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('a failure the hooks measured keeps its exit code when the fold reads the transcript claiming another', async () => {
    ws = makeHookWorkspace();
    home = mkdtempSync(path.join(os.tmpdir(), 'baton-merge-'));
    const rollout = await writeFailedCodexRollout(home, ws.dir);
    const s = { session: FAILED_CODEX_ID, cwd: ws.dir };
    const env = { ...process.env, HOME: home, CODEX_HOME: path.join(home, 'empty'), CLAUDE_CONFIG_DIR: path.join(home, 'empty') };
    const id = `codex-${FAILED_CODEX_ID}`;
    const measured = data({
      clientSessionId: FAILED_CODEX_ID,
      workspace: ws.dir,
      origin: 'hooks',
      starts: { startup: 1 },
      startedAt: Date.parse('2026-03-01T10:00:00Z'),
      lastActivityAt: Date.parse('2026-03-01T10:00:04Z'),
      filesUpdated: ['measured.ts'],
      failures: [{ command: 'npm test', exitCode: 2, error: 'measured', at: 0, turn: 1 }],
    });
    await ws.withLedger((ledger) => ledger.createRecord('agent_sessions', { id, status: 'active', data: measured }));
    await ws.hook('codex', 'stop', codex.stop(s, rollout), { env });
    const record = (await ws.session(id))?.data;
    expect(record?.failures.map((f) => [f.command, f.exitCode, f.error])).toEqual([['npm test', 2, 'measured']]);
    expect(record?.filesUpdated).toContain('measured.ts');
    expect(record).toMatchObject({ lastPrompt: 'make the parser tests pass', toolCalls: 1 });
  });
});
