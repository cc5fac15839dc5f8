import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readClaudeSession, readSessionFile, type SessionClient } from '../../src/sessions/index.js';
import { oracleCount, sharedSessionFiles, sharedSessionsPresent } from './shared-sessions.js';

const FOLDERS: Array<[string, SessionClient, number]> = [
  ['claude-code', 'claude', 21],
  ['codex', 'codex', 8],
  ['gemini-cli', 'gemini', 6],
  ['copilot-cli', 'copilot', 3],
];

describe.skipIf(!sharedSessionsPresent)('the readers on the 38 real public sessions', () => {
  for (const [folder, client, n] of FOLDERS) {
    it(`${folder}: finds every call and failed call the fixtures count, skips no line, has prompts and an id`, async () => {
      const files = sharedSessionFiles(folder).filter((f) => /\.jsonl?$/.test(f));
      expect(files.length).toBe(n);
      for (const file of files) {
        const { session } = await readSessionFile(file);
        const expected = await oracleCount(file);
        const calls = session.events.flatMap((e) => (e.type === 'tool' ? [e.call] : []));
        const name = path.basename(file);
        expect(session.client, name).toBe(client);
        expect(session.skipped, name).toBe(0);
        expect(calls.filter((c) => c.failed).length, name).toBe(expected.failed);
        // Claude 1.0 inline sidechains belong to their sub-agent, so a main session may hold fewer calls.
        if (client === 'claude') expect(calls.length, name).toBeLessThanOrEqual(expected.calls);
        else expect(calls.length, name).toBe(expected.calls);
        expect(
          session.events.some((e) => e.type === 'user'),
          name,
        ).toBe(true);
        expect(session.id.length, name).toBeGreaterThan(0);
        for (const c of calls) if (c.failed) expect(c.output, name).toBeDefined();
      }
    });
  }

  it('links the Claude Code 2.1 sub-agent transcript to its parent session', async () => {
    const files = sharedSessionFiles('claude-code');
    const child = (await readClaudeSession(files.find((f) => f.includes('agent-a71969c1296961234')) ?? '')).session;
    const parent = (await readClaudeSession(files.find((f) => f.includes('44ef5cbf')) ?? '')).session;
    expect(child.parentId).toBe(parent.id);
    expect(parent.subagents.map((s) => s.id)).toContain(child.id);
  });
});
