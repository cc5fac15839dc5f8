import type { AgentPermissions } from '../types.js';
import { parseResultJson } from './result-json.js';
import type { AgentCliSpec } from './types.js';

/**
 * The shell commands `permissions: 'workspace'` lets claude run without asking: tests, builds,
 * package installs and git, in the tool-rule syntax of `--allowedTools`. Everything else still
 * needs an approval that `claude -p` cannot ask for, so it is refused. A provider's
 * `args: ["--allowedTools", "Bash(cargo *)"]` adds to the list (claude joins repeated lists).
 */
export const CLAUDE_WORKSPACE_TOOLS: readonly string[] =
  'npm npx node pnpm yarn bun deno python python3 pip pytest uv go cargo make git mkdir ls'
    .split(' ')
    .map((command) => `Bash(${command} *)`);

const PERMISSION_ARGS: Readonly<Record<AgentPermissions, readonly string[]>> = {
  edits: ['--permission-mode', 'acceptEdits'],
  workspace: ['--permission-mode', 'acceptEdits', '--allowedTools', ...CLAUDE_WORKSPACE_TOOLS],
  // Claude refuses this as root unless IS_SANDBOX=1 says the machine is a sandbox.
  full: ['--permission-mode', 'bypassPermissions'],
};

/**
 * Claude Code: `claude -p --output-format json --permission-mode acceptEdits … -- PROMPT`. `-p` is
 * a switch and the prompt a positional argument, so the prompt comes after `--`: every seam block
 * starts with `---`, which claude's parser would read as an option. `--allowedTools` takes a
 * list, which `--` ends too. Its exit code is unreliable (a rate limit has been seen with exit 0
 * and is_error: true), so the json result decides.
 */
export const claudeSpec: AgentCliSpec = {
  type: 'claude',
  defaultBinary: 'claude',
  // Without a prompt argument, claude -p reads the prompt from stdin.
  stdinPrompt: true,
  buildArgs: ({ prompt, promptOnStdin, model, permissions, extraArgs }) => [
    '-p',
    '--output-format',
    'json',
    ...PERMISSION_ARGS[permissions],
    ...(model === undefined ? [] : ['--model', model]),
    ...extraArgs,
    ...(promptOnStdin ? [] : ['--', prompt]),
  ],
  parseOutput: parseResultJson,
  endpoint: ({ env }) => Promise.resolve(env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com'),
};
