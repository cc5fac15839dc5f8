import type { AgentPermissions } from '../types.js';
import { parseResultJson } from './result-json.js';
import type { AgentCliSpec } from './types.js';

const PERMISSION_ARGS: Readonly<Record<AgentPermissions, readonly string[]>> = {
  // Print mode without --force runs edits in the workspace and refuses what needs approval.
  edits: [],
  // cursor-agent has no flag between the two: --force runs every action its deny rules allow.
  workspace: ['--force'],
  full: ['--force'],
};

/**
 * cursor-agent: `cursor-agent -p --output-format json --force -- PROMPT`; same result shape as
 * claude. `-p` is a switch and the prompt a positional argument, so the prompt comes after `--`
 * (a seam block starts with `---`). cursor-agent is not installable here: its argv is checked
 * against a commander parser of the same shape (test/providers/agent-argv.test.ts).
 */
export const cursorSpec: AgentCliSpec = {
  type: 'cursor',
  defaultBinary: 'cursor-agent',
  buildArgs: ({ prompt, model, permissions, extraArgs }) => [
    '-p',
    '--output-format',
    'json',
    ...PERMISSION_ARGS[permissions],
    ...(model === undefined ? [] : ['--model', model]),
    ...extraArgs,
    '--',
    prompt,
  ],
  parseOutput: parseResultJson,
};
