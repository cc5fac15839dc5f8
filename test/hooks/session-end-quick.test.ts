import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';
import { FAILED_CODEX_ID, writeFailedCodexRollout } from '../sessions/failed-codex-rollout.js';
import { claude, codex } from './helpers/payloads.js';

const SESSION = 'quick-end';

function line(type: 'user' | 'assistant', text: string, at: string): string {
  const message = type === 'user' ? { role: 'user', content: text } : { role: 'assistant', content: [{ type: 'text', text }] };
  return `${JSON.stringify({ type, message, timestamp: at, sessionId: SESSION, uuid: `${type}-${at}` })}\n`;
}

/** The session's hook state (.baton/hooks/sessions/<id>.json). */
function hookState(dir: string): { nextBatch?: number; transcriptSeen?: { bytes: number } } {
  const sessions = path.join(dir, '.baton', 'hooks', 'sessions');
  const file = readdirSync(sessions).find((name) => name.endsWith('.json'));
  return JSON.parse(readFileSync(path.join(sessions, file ?? 'missing'), 'utf8')) as ReturnType<typeof hookState>;
}

describe('SessionEnd right after a Stop that folded everything', () => {
  let ws: HookWorkspace;
  afterEach(() => ws?.cleanup());

  async function startAndStop(): Promise<{ transcript: string; s: { session: string; cwd: string } }> {
    ws = makeHookWorkspace();
    const s = { session: SESSION, cwd: ws.dir };
    const transcript = path.join(ws.dir, '.baton', 'transcript.jsonl');
    writeFileSync(transcript, line('user', 'write the parser', '2026-11-29T09:00:00.000Z'));
    appendFileSync(transcript, line('assistant', 'Wrote it.', '2026-11-29T09:00:05.000Z'));
    await ws.hook('claude', 'session-start', { ...claude.sessionStart(s), transcript_path: transcript });
    ws.write('parser.ts', 'export {}\n');
    await ws.hook('claude', 'stop', { ...claude.stop(s, 'Wrote it.'), transcript_path: transcript });
    expect((await ws.session(`claude-${SESSION}`))?.data).toMatchObject({ lastPrompt: 'write the parser', filesCreated: ['parser.ts'] });
    expect(hookState(ws.dir).transcriptSeen?.bytes).toBe(readFileSync(transcript).length);
    return { transcript, s };
  }

  it('closes the record without a fold when the transcript only grew by Claude’s last-prompt line', async () => {
    const { transcript, s } = await startAndStop();
    appendFileSync(transcript, `${JSON.stringify({ type: 'last-prompt', lastPrompt: 'write the parser', sessionId: SESSION })}\n`);
    await ws.hook('claude', 'session-end', { ...claude.sessionEnd(s, 'other'), transcript_path: transcript });
    const record = (await ws.session(`claude-${SESSION}`))?.data;
    expect(record).toMatchObject({ endReason: 'other', lastPrompt: 'write the parser', filesCreated: ['parser.ts'] });
    expect(record?.endedAt).toBeDefined();
    expect(record?.summary).toContain('ended');
    // No journal batch was taken: the fold did not run.
    expect(hookState(ws.dir).nextBatch).toBeUndefined();
  });

  it('folds as before when the transcript gained a prompt since the Stop (a turn cut off without one)', async () => {
    const { transcript, s } = await startAndStop();
    appendFileSync(transcript, line('user', 'now the tests', '2026-11-29T09:01:00.000Z'));
    await ws.hook('claude', 'session-end', { ...claude.sessionEnd(s, 'other'), transcript_path: transcript });
    const record = (await ws.session(`claude-${SESSION}`))?.data;
    expect(record).toMatchObject({ endReason: 'other', lastPrompt: 'now the tests', turns: 2 });
    expect(record?.endedAt).toBeDefined();
    expect(hookState(ws.dir).nextBatch).toBe(1);
  });

  it('closes a Codex session without a fold when its rollout only gained the task_complete event', async () => {
    ws = makeHookWorkspace();
    const home = mkdtempSync(path.join(os.tmpdir(), 'baton-rollout-'));
    try {
      const rollout = await writeFailedCodexRollout(home, ws.dir);
      const s = { session: FAILED_CODEX_ID, cwd: ws.dir };
      const env = { ...process.env, HOME: home, CODEX_HOME: path.join(home, 'empty'), CLAUDE_CONFIG_DIR: path.join(home, 'empty') };
      await ws.hook('codex', 'session-start', codex.sessionStart(s, 'startup', rollout), { env });
      await ws.hook('codex', 'stop', codex.stop(s, rollout), { env });
      const done = { type: 'task_complete', turn_id: 't1', last_agent_message: 'done', duration_ms: 3375 };
      appendFileSync(rollout, `${JSON.stringify({ timestamp: '2026-03-01T10:00:59.000Z', type: 'event_msg', payload: done })}\n`);
      const end = { session_id: s.session, cwd: ws.dir, hook_event_name: 'SessionEnd', transcript_path: rollout, reason: 'other' };
      await ws.hook('codex', 'session-end', end, { env });
      const record = (await ws.session(`codex-${FAILED_CODEX_ID}`))?.data;
      expect(record).toMatchObject({ lastPrompt: 'make the parser tests pass', toolCalls: 1 });
      expect(record?.endedAt).toBeDefined();
      expect(hookState(ws.dir).nextBatch).toBeUndefined();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
