import { parseResultJson } from './result-json.js';
import type { AgentCliSpec } from './types.js';

/**
 * Claude Code: `claude -p PROMPT --output-format json --permission-mode acceptEdits`. Its exit
 * code is unreliable (a rate limit has been seen with exit 0 and is_error: true), so the json
 * result decides.
 */
export const claudeSpec: AgentCliSpec = {
  type: 'claude',
  defaultBinary: 'claude',
  // Without a prompt argument, claude -p reads the prompt from stdin.
  stdinPrompt: true,
  buildArgs: ({ prompt, promptOnStdin, model }) => [
    '-p',
    ...(promptOnStdin ? [] : [prompt]),
    '--output-format',
    'json',
    '--permission-mode',
    'acceptEdits',
    ...(model === undefined ? [] : ['--model', model]),
  ],
  parseOutput: parseResultJson,
};
