import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentCliType, CLAUDE_WORKSPACE_TOOLS, createProvider, MAX_ARGV_PROMPT_BYTES } from '../../src/providers/index.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/bin');
/** A seam block as the supervisor sends it: every one starts with `---`. */
const SEAM =
  '--- PROVIDER SWITCH CONTEXT ---\nPrevious provider (limited) failed: rate_limited\n--- END CONTEXT ---\n\n## Task ID\ngreet\n';
const PROMPTS = ['-x looks like a flag', '---', SEAM];

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(path.join(tmpdir(), 'baton-argv-'));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** Runs the provider against the recording stand-in; returns the argv and stdin it got. */
async function recorded(type: AgentCliType, prompt: string, extra: { args?: string[]; permissions?: 'edits' | 'workspace' | 'full' } = {}) {
  const file = path.join(cwd, `${type}-${Math.random().toString(36).slice(2)}.json`);
  const provider = createProvider(type, { type, binary: path.join(BIN, 'record-argv.mjs'), env: { FAKE_ARGS_FILE: file }, ...extra });
  await provider.run({ prompt, cwd, timeoutMs: 20_000 });
  return JSON.parse(await readFile(file, 'utf8')) as { argv: string[]; stdin: string };
}

describe('every adapter passes the prompt as a prompt, never as options', () => {
  // The argv each CLI's own parser was checked against (test/providers/real-cli-argv.test.ts runs
  // the real claude, gemini, codex and copilot with it).
  it.each(PROMPTS)('claude and codex get it after "--", with configured args before it (%j)', async (prompt) => {
    const claude = await recorded('claude', prompt, { args: ['--max-turns', '9'] });
    expect(claude.argv.slice(-4)).toEqual(['--max-turns', '9', '--', prompt]);
    expect(claude.argv.indexOf('--')).toBe(claude.argv.length - 2);
    const codex = await recorded('codex', prompt, { args: ['-c', 'model_reasoning_effort="low"'] });
    expect(codex.argv.slice(-4)).toEqual(['-c', 'model_reasoning_effort="low"', '--', prompt]);
    expect(codex.argv[0]).toBe('exec');
  });

  it.each(PROMPTS)('gemini and copilot get it as one --prompt= argument (%j)', async (prompt) => {
    for (const type of ['gemini', 'copilot'] as const) {
      const { argv } = await recorded(type, prompt, { args: ['--extra'] });
      expect(argv.filter((a) => a.includes(prompt))).toEqual([`--prompt=${prompt}`]);
      expect(argv).not.toContain('-p');
      expect(argv.at(-1)).toBe('--extra');
    }
  });

  it.each(PROMPTS)('cursor-agent gets it after "--" and its commander parser reads it as the prompt (%j)', async (prompt) => {
    // cursor-agent is not installable here (not on npm): a commander program with its documented
    // options (-p/--print a switch, the prompt positional) stands in for its parser.
    const cursor = createProvider('cursor', { type: 'cursor', binary: path.join(BIN, 'commander-agent.mjs'), args: ['--model', 'auto'] });
    const result = await cursor.run({ prompt, cwd, timeoutMs: 20_000 });
    expect(result.outcome.kind).toBe('ok');
    expect(result.response).toBe(prompt);
  });

  it('claude’s parser (commander, the same stand-in) reads a seam prompt as the prompt, past its --allowedTools list', async () => {
    const claude = createProvider('claude', { type: 'claude', binary: path.join(BIN, 'commander-agent.mjs') });
    const result = await claude.run({ prompt: SEAM, cwd, timeoutMs: 20_000 });
    expect(result.outcome.kind).toBe('ok');
    expect(result.response).toBe(SEAM);
    // --allowedTools takes a list: "--" is what keeps the prompt out of it.
    expect(result.output).toContain(JSON.stringify(CLAUDE_WORKSPACE_TOOLS));
  });

  it('sends a prompt too big for one argument on stdin, with nothing of it in argv', async () => {
    const prompt = `---${'p'.repeat(MAX_ARGV_PROMPT_BYTES)}`;
    for (const type of ['claude', 'gemini', 'codex', 'copilot'] as const) {
      const { argv, stdin } = await recorded(type, prompt);
      expect(stdin).toBe(prompt);
      expect(argv.some((a) => a.includes('ppp'))).toBe(false);
      expect(argv.some((a) => a === '-p' && type !== 'claude')).toBe(false);
      if (type === 'codex') expect(argv.slice(-2)).toEqual(['--', '-']);
    }
  });
});

describe('permissions: what each CLI may do without asking', () => {
  it.each([
    ['claude', 'edits', ['--permission-mode', 'acceptEdits']],
    ['claude', 'workspace', ['--permission-mode', 'acceptEdits', '--allowedTools', ...CLAUDE_WORKSPACE_TOOLS]],
    ['claude', 'full', ['--permission-mode', 'bypassPermissions']],
    ['gemini', 'edits', ['--approval-mode', 'auto_edit']],
    ['gemini', 'workspace', ['--approval-mode', 'yolo']],
    ['codex', 'edits', ['-s', 'workspace-write']],
    ['codex', 'workspace', ['-s', 'workspace-write', '-c', 'sandbox_workspace_write.network_access=true']],
    ['codex', 'full', ['--dangerously-bypass-approvals-and-sandbox']],
    ['copilot', 'edits', ['--allow-tool', 'write']],
    ['copilot', 'workspace', ['--allow-all-tools']],
    ['copilot', 'full', ['--allow-all']],
    ['cursor', 'workspace', ['--force']],
  ] as const)('%s %s passes %j', async (type, permissions, flags) => {
    const { argv } = await recorded(type, 'Build it', { permissions });
    const at = argv.indexOf(flags[0]);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(argv.slice(at, at + flags.length)).toEqual(flags);
  });

  it('defaults to workspace', async () => {
    expect((await recorded('copilot', 'Build it')).argv).toContain('--allow-all-tools');
    expect((await recorded('claude', 'Build it')).argv).toContain('--allowedTools');
    expect((await recorded('cursor', 'Build it', { permissions: 'edits' })).argv).not.toContain('--force');
  });
});
