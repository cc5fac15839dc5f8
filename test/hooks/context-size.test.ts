import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type AgentClient, contextBudget, type HookContextData, renderHookContext } from '../../src/hooks/index.js';
import { type AgentSessionRecord, type Dispatch, materializeDispatch, materializeTask, type Task } from '../../src/ledger/index.js';
import { countTokens } from '../../src/tokens/index.js';

const hex = (n: number) => Array.from({ length: n }, (_, i) => ((i * 2654435761) >>> 0).toString(16).slice(0, 8)).join('');

/** A busy workspace: long commands and errors, hundreds of changed files, many sessions, runs and tasks. */
function busyContext(now: number): HookContextData {
  const sessions: AgentSessionRecord[] = Array.from({ length: 6 }, (_, i) => ({
    id: `claude-${hex(4)}-${i}`,
    status: i === 0 ? 'active' : 'ended',
    createdAt: now - i * 60_000,
    updatedAt: now - i * 60_000,
    data: {
      client: (['claude', 'gemini', 'codex'] as AgentClient[])[i % 3] as AgentClient,
      clientSessionId: `${hex(4)}-${i}`,
      workspace: '/w',
      startedAt: now - 3_600_000,
      lastActivityAt: now - i * 60_000,
      endedAt: now - i * 60_000,
      starts: { startup: 1 },
      turns: 12,
      toolCalls: 80,
      compactions: 2,
      filesCreated: Array.from({ length: 200 }, (_, f) => `src/generated/${hex(2)}/module-${f}.ts`),
      filesUpdated: Array.from({ length: 200 }, (_, f) => `lib/${hex(2)}/file-${f}.ts`),
      filesDeleted: [],
      failures: Array.from({ length: 10 }, (_, f) => ({
        command: `npx vitest run test/${hex(3)}/suite-${f}.test.ts --reporter=verbose --bail ${hex(10)}`,
        exitCode: 1,
        error: `AssertionError: expected ${hex(40)} to equal ${hex(40)}\n${'    at Object.<anonymous> (test/x.ts:1:1)\n'.repeat(20)}`,
        at: now - f * 1000,
        turn: 12,
      })),
      lastPrompt: `Please ${'refactor the whole pipeline and keep the public API stable '.repeat(12)}`,
      summary: `Claude Code session ${hex(1)}: 12 turns, 80 tool calls; created ${hex(30)}; changed ${hex(30)}; 10 failed commands (last: \`${hex(20)}\`, exit 1); ended.`,
    },
  }));
  const runs: Dispatch[] = Array.from({ length: 6 }, (_, i) =>
    materializeDispatch(
      {
        taskId: `t${i}`,
        attempt: 3,
        provider: 'codex',
        status: 'failed',
        outcome: 'validation_failed',
        result: hex(200),
        validationErrors: [hex(100)],
        filesCreated: Array.from({ length: 30 }, (_, f) => `pkg/${hex(2)}/${f}.ts`),
        startedAt: now - i * 1000,
      },
      i + 1,
      now,
    ),
  );
  const tasks = new Map<string, Task>(
    runs.map((run) => [
      run.taskId,
      materializeTask({ id: run.taskId, title: `Task ${hex(12)}`, status: 'blocked', blockReason: hex(60) }, now),
    ]),
  );
  const status = Object.fromEntries(Array.from({ length: 500 }, (_, f) => [`src/${hex(3)}/changed-${f}.ts`, f % 3 === 0 ? '??' : '.M']));
  return {
    workspace: '/w',
    now,
    sessionId: sessions[0]?.id ?? '',
    source: 'compact',
    git: {
      head: hex(5),
      branch: `feature/${hex(4)}`,
      files: Object.fromEntries(Object.keys(status).map((file) => [file, hex(5)])),
      status,
    },
    commits: Array.from({ length: 3 }, (_, i) => ({ sha: hex(1), subject: `Commit ${hex(30)} ${i}`, at: now })),
    sessions,
    runs,
    tasks,
    openTasks: [...tasks.values()],
  };
}

describe('the injected context stays within each client’s budget', () => {
  const now = Date.parse('2026-11-26T16:00:00Z');

  it('Claude: at most 9,500 characters (Claude previews only 2 KB of anything over 10,000)', () => {
    const { text } = renderHookContext(busyContext(now), contextBudget('claude'));
    expect(text.length).toBeLessThanOrEqual(9_500);
    expect(text).toContain('## Next step');
    expect(text).toContain('## Last failures');
  });

  it('Codex: at most 2,400 o200k tokens, counted with the real tokenizer, on text that tokenizes badly (hex)', () => {
    const { text } = renderHookContext(busyContext(now), contextBudget('codex'));
    expect(countTokens(text)).toBeLessThanOrEqual(2_400);
    expect(text).toContain('## Next step');
  });

  it('renders the same record to the same digest at another time, and a changed record to another digest', () => {
    const data = busyContext(now);
    const first = renderHookContext(data, contextBudget('claude'));
    const later = renderHookContext({ ...data, now: now + 3_600_000 }, contextBudget('claude'));
    expect(later.text).not.toBe(first.text);
    expect(later.digest).toBe(first.digest);
    const changed = renderHookContext({ ...data, commits: [] }, contextBudget('claude'));
    expect(changed.digest).not.toBe(first.digest);
  });
});

describe('the per-tool-call entry stays lean', () => {
  it('the bundled `baton hook` entry loads neither the MCP SDK, ai, zod, commander nor the tokenizer', () => {
    const metafile = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../dist/cli-bundle/metafile.json', import.meta.url)), 'utf8'),
    ) as Record<string, { entryPoint?: string; imports: Array<{ path: string; kind: string }>; inputs: Record<string, unknown> }>;
    const entry = Object.entries(metafile).find(([, output]) => output.entryPoint?.endsWith('hook-main.js'));
    expect(entry, 'npm run build makes dist/cli-bundle/hook-main.js').toBeDefined();
    // Everything hook-main loads before its first dynamic import: itself and its static imports.
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const imported of metafile[file]?.imports ?? []) if (imported.kind === 'import-statement') visit(imported.path);
    };
    visit((entry as [string, unknown])[0]);
    const inputs = [...loaded].flatMap((file) => [
      ...Object.keys(metafile[file]?.inputs ?? {}),
      ...(metafile[file]?.imports ?? []).map((i) => i.path),
    ]);
    for (const heavy of [
      '@modelcontextprotocol',
      'node_modules/zod',
      'node_modules/commander',
      'gpt-tokenizer',
      'node_modules/ai/',
      'better-sqlite3',
      'ioredis',
      'pino',
    ]) {
      expect(
        inputs.filter((input) => input.includes(heavy)),
        heavy,
      ).toEqual([]);
    }
  });

  it('no event handler loads zod or the ledger’s line schemas before it opens the ledger (about 37 ms of CPU at each start)', () => {
    const metafile = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../dist/cli-bundle/metafile.json', import.meta.url)), 'utf8'),
    ) as Record<string, { imports: Array<{ path: string; kind: string }>; inputs: Record<string, unknown> }>;
    const handlers = ['handle-note', 'handle-stop', 'handle-session-end', 'handle-session'].map((name) =>
      Object.keys(metafile).find((file) => new RegExp(`/hook-main-${name}-[A-Z0-9]+\\.js$`).test(file)),
    );
    expect(handlers.every(Boolean), 'npm run build makes the hook handlers’ chunks').toBe(true);
    for (const handler of handlers as string[]) {
      const loaded = new Set<string>();
      const visit = (file: string) => {
        if (loaded.has(file)) return;
        loaded.add(file);
        for (const imported of metafile[file]?.imports ?? []) if (imported.kind === 'import-statement') visit(imported.path);
      };
      visit(handler);
      const inputs = [...loaded].flatMap((file) => Object.keys(metafile[file]?.inputs ?? {}));
      expect(
        inputs.filter((input) => input.includes('node_modules/zod') || input.endsWith('ledger/ledger-lines.js')),
        handler,
      ).toEqual([]);
    }
  });
});
