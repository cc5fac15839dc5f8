import { parseResultJson } from './result-json.js';
import type { AgentCliSpec } from './types.js';

/** cursor-agent: `cursor-agent -p PROMPT --output-format json --force`; same result shape as claude. */
export const cursorSpec: AgentCliSpec = {
  type: 'cursor',
  defaultBinary: 'cursor-agent',
  buildArgs: ({ prompt, model }) => [
    '-p',
    prompt,
    '--output-format',
    'json',
    '--force',
    ...(model === undefined ? [] : ['--model', model]),
  ],
  parseOutput: parseResultJson,
};
