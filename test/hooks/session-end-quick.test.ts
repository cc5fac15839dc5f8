import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type HookWorkspace, makeHookWorkspace } from './helpers/hook-workspace.js';
import { claude } from './helpers/payloads.js';

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
});
