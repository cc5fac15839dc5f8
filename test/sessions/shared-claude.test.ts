import { describe, expect, it } from 'vitest';
import { readClaudeSession } from '../../src/sessions/index.js';
import { oracleCount, sharedSessionFiles, sharedSessionsPresent } from './shared-sessions.js';

describe.skipIf(!sharedSessionsPresent)('the Claude Code reader on 21 real public transcripts (1.0.58 to 2.1.136)', () => {
  it('finds every failed call the fixtures count, skips no line, and has a prompt and an id in each', async () => {
    const files = sharedSessionFiles('claude-code');
    expect(files.length).toBeGreaterThanOrEqual(21);
    for (const file of files) {
      const { session } = await readClaudeSession(file);
      const expected = await oracleCount(file);
      const calls = session.events.filter((e) => e.type === 'tool');
      const failed = calls.filter((e) => e.type === 'tool' && e.call.failed);
      expect(session.skipped, file).toBe(0);
      expect(failed.length, file).toBe(expected.failed);
      // Inline 1.0 sidechains belong to their sub-agent, so the main session may hold fewer calls.
      expect(calls.length, file).toBeLessThanOrEqual(expected.calls);
      expect(calls.length, file).toBeGreaterThan(0);
      expect(
        session.events.some((e) => e.type === 'user'),
        file,
      ).toBe(true);
      expect(session.id.length, file).toBeGreaterThan(0);
      for (const e of calls) if (e.type === 'tool' && e.call.failed) expect(e.call.output, file).toBeDefined();
    }
  });

  it('links the 2.1 sub-agent transcript to its parent session', async () => {
    const files = sharedSessionFiles('claude-code');
    const child = files.find((f) => f.includes('agent-a71969c1296961234'));
    const parent = files.find((f) => f.includes('44ef5cbf'));
    const childSession = (await readClaudeSession(child ?? '')).session;
    const parentSession = (await readClaudeSession(parent ?? '')).session;
    expect(childSession.parentId).toBe(parentSession.id);
    expect(parentSession.subagents.map((s) => s.id)).toContain(childSession.id);
  });
});
