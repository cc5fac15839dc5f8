import type { TokenUsage } from '../types.js';
import { asNumber, asRecord, asString, parseJsonLines } from './parse-json.js';
import type { AgentCliSpec, ParsedAgentOutput } from './types.js';

/**
 * Codex CLI: `codex exec --json --skip-git-repo-check -C DIR [-m MODEL] PROMPT`. It exits 1 for
 * every failure, so the kind is only in the JSONL `turn.failed` / `error` messages.
 */
export const codexSpec: AgentCliSpec = {
  type: 'codex',
  defaultBinary: 'codex',
  // A prompt of "-" is read from stdin.
  stdinPrompt: true,
  buildArgs: ({ prompt, promptOnStdin, cwd, model }) => [
    'exec',
    '--json',
    '--skip-git-repo-check',
    // codex 0.169 dropped --full-auto; this is the sandbox it stood for.
    '-s',
    'workspace-write',
    '-C',
    cwd,
    ...(model === undefined ? [] : ['-m', model]),
    // "--" so a prompt starting with "-" is not read as a flag.
    '--',
    promptOnStdin ? '-' : prompt,
  ],
  parseOutput: parseCodexOutput,
};

/** Reads codex's JSONL events: agent messages, turn usage, failures and the model when reported. */
export function parseCodexOutput(stdout: string, _stderr: string): ParsedAgentOutput {
  const events = parseJsonLines(stdout).filter((e) => typeof e.type === 'string');
  if (events.length === 0) return { structured: false };
  const parsed: ParsedAgentOutput = { structured: true };
  const errors: string[] = [];
  const usage: TokenUsage = {};
  for (const event of events) {
    const type = event.type as string;
    const item = asRecord(event.item);
    if (type === 'item.completed' && item?.type === 'agent_message') {
      const text = asString(item.text);
      if (text !== undefined) parsed.response = text;
    }
    if (type === 'turn.completed') readUsage(asRecord(event.usage), usage);
    if (type === 'turn.failed') errors.push(asString(asRecord(event.error)?.message) ?? 'turn failed');
    if (type === 'error') errors.push(asString(event.message) ?? 'error');
    const model = asString(event.model) ?? asString(asRecord(event.thread)?.model);
    if (model !== undefined) parsed.model = model;
  }
  if (errors.length > 0) {
    parsed.isError = true;
    parsed.errorText = [...new Set(errors)].join('\n');
  }
  if (Object.keys(usage).length > 0) parsed.usage = usage;
  return parsed;
}

function readUsage(raw: Record<string, unknown> | undefined, usage: TokenUsage): void {
  const input = asNumber(raw?.input_tokens);
  const output = asNumber(raw?.output_tokens);
  if (input !== undefined) usage.input = (usage.input ?? 0) + input;
  if (output !== undefined) usage.output = (usage.output ?? 0) + output;
  if (input !== undefined || output !== undefined) usage.total = (usage.input ?? 0) + (usage.output ?? 0);
}
