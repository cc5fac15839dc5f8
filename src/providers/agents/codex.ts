import type { AgentPermissions, TokenUsage } from '../types.js';
import { readCodexSettings, readSessionModel } from './codex-settings.js';
import { addTokens, asNumber, asRecord, asString, parseJsonLines } from './parse-json.js';
import type { AgentCliSpec, AgentRunContext, ParsedAgentOutput } from './types.js';

const PERMISSION_ARGS: Readonly<Record<AgentPermissions, readonly string[]>> = {
  // Edits and commands inside codex's sandbox: the workspace is writable, the network is off.
  edits: ['-s', 'workspace-write'],
  // The same sandbox with the network on, which package installs need. Codex keeps .git
  // read-only in it: the agent reads history, Baton commits.
  workspace: ['-s', 'workspace-write', '-c', 'sandbox_workspace_write.network_access=true'],
  full: ['--dangerously-bypass-approvals-and-sandbox'],
};

/**
 * Reconnect notices in a row before Baton stops codex (about 40 s of its growing backoff).
 * `BATON_CODEX_RECONNECTS` (a positive integer) overrides it, read at each run.
 */
const UNREACHABLE_RECONNECTS = 4;

function unreachableReconnects(): number {
  const set = Number(process.env.BATON_CODEX_RECONNECTS);
  return Number.isInteger(set) && set > 0 ? set : UNREACHABLE_RECONNECTS;
}

/**
 * Codex CLI: `codex exec --json --skip-git-repo-check -s workspace-write -C DIR [-m MODEL] -- PROMPT`.
 * Configured args go before the `--` that ends options (after it codex would read them as the
 * prompt). It exits 1 for every failure, so the kind is only in the JSONL `turn.failed` / `error`
 * messages. Its events name no model: the session file (or the config) says which ran. An
 * unreachable model endpoint makes it wait for the network for ever ("Reconnecting... waiting for
 * network"): after a few such notices Baton stops it and names the endpoint.
 */
export const codexSpec: AgentCliSpec = {
  type: 'codex',
  defaultBinary: 'codex',
  // A prompt of "-" is read from stdin.
  stdinPrompt: true,
  buildArgs: ({ prompt, promptOnStdin, cwd, model, permissions, extraArgs }) => [
    'exec',
    '--json',
    '--skip-git-repo-check',
    ...PERMISSION_ARGS[permissions],
    '-C',
    cwd,
    ...(model === undefined ? [] : ['-m', model]),
    ...extraArgs,
    // "--" so a prompt starting with "-" (every seam block) is not read as a flag.
    '--',
    promptOnStdin ? '-' : prompt,
  ],
  parseOutput: parseCodexOutput,
  readModel: readCodexModel,
  endpoint: async (context) => (await readCodexSettings(context)).baseUrl,
  stall: {
    pattern: String.raw`^\{"type":"error","message":"Reconnecting\.\.\. waiting for network`,
    get count() {
      return unreachableReconnects();
    },
    describe: describeUnreachable,
  },
};

async function readCodexModel(parsed: ParsedAgentOutput, context: AgentRunContext): Promise<string | undefined> {
  const settings = await readCodexSettings(context);
  const ran = parsed.sessionId === undefined ? undefined : await readSessionModel(settings.home, parsed.sessionId);
  return ran ?? settings.model;
}

async function describeUnreachable(line: string, context: AgentRunContext): Promise<string> {
  const settings = await readCodexSettings(context);
  const cause = /\(([^)]*)\)/.exec(asString(parseJsonLines(line)[0]?.message) ?? '')?.[1] ?? 'connection failed';
  const where = settings.baseUrl ?? `the endpoint of model provider "${settings.provider}"`;
  const count = unreachableReconnects();
  return `codex could not reach its model endpoint ${where} (model provider "${settings.provider}"): ${cause}; stopped after ${count} reconnect attempt${count === 1 ? '' : 's'}`;
}

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
    if (type === 'turn.completed') {
      addTokens(usage, 'input', asNumber(asRecord(event.usage)?.input_tokens));
      addTokens(usage, 'output', asNumber(asRecord(event.usage)?.output_tokens));
    }
    if (type === 'turn.failed') errors.push(asString(asRecord(event.error)?.message) ?? 'turn failed');
    // "Reconnecting... 2/5" is a notice of codex's own retry, not a failure: the turn may still complete.
    if (type === 'error' && !/^Reconnecting\b/.test(asString(event.message) ?? '')) errors.push(asString(event.message) ?? 'error');
    if (type === 'thread.started') parsed.sessionId = asString(event.thread_id) ?? parsed.sessionId;
    const model = asString(event.model) ?? asString(asRecord(event.thread)?.model);
    if (model !== undefined) parsed.model = model;
  }
  if (errors.length > 0) {
    parsed.isError = true;
    parsed.errorText = [...new Set(errors)].join('\n');
  }
  if (Object.keys(usage).length > 0) parsed.usage = { ...usage, total: (usage.input ?? 0) + (usage.output ?? 0) };
  return parsed;
}
