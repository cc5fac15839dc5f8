import type { AgentCliSpec, ParsedAgentOutput } from './types.js';

// Model names run on while words start with a capital or digit: "GPT-4.1 which…", "Claude Sonnet 4.5.".
const SWITCHED_MODEL = /switched you to ([A-Za-z0-9][\w.-]*(?: [A-Z0-9][\w.-]*)*)/;

/**
 * GitHub Copilot CLI: `copilot -p PROMPT -s --allow-all-tools`. Plain text only, so phrases and the
 * exit code decide; a silent model switch ("automatically switched you to GPT-4.1") is recorded.
 */
export const copilotSpec: AgentCliSpec = {
  type: 'copilot',
  defaultBinary: 'copilot',
  buildArgs: ({ prompt, model }) => ['-p', prompt, '-s', '--allow-all-tools', ...(model === undefined ? [] : ['--model', model])],
  parseOutput: parseCopilotOutput,
};

export function parseCopilotOutput(stdout: string, stderr: string): ParsedAgentOutput {
  const parsed: ParsedAgentOutput = { structured: false };
  const response = stdout.trim();
  if (response !== '') parsed.response = response;
  const switched = SWITCHED_MODEL.exec(`${stderr}\n${stdout}`);
  if (switched !== null) parsed.model = switched[1]!.replace(/[.,;:!]+$/, '');
  return parsed;
}
