import type { AgentPermissions, TokenUsage } from '../types.js';
import { addTokens, asNumber, asRecord, asString, parseJsonObject } from './parse-json.js';
import type { AgentCliSpec, ParsedAgentOutput } from './types.js';

const APPROVAL_MODE: Readonly<Record<AgentPermissions, string>> = {
  edits: 'auto_edit',
  // Gemini has no headless mode between the two without policy files: shell commands need yolo.
  workspace: 'yolo',
  full: 'yolo',
};

/**
 * Gemini CLI: `gemini --prompt=PROMPT -o json --approval-mode yolo --skip-trust`. The prompt is
 * one `--prompt=…` argument: after a bare `-p` gemini's parser reads a prompt starting with `-`
 * as an option ("Not enough arguments following: p"). A large prompt goes on stdin without
 * `--prompt`: gemini runs headless when stdin is not a terminal. In json mode an HTTP status
 * becomes the exit code mod 256 (429 exits 173); a fresh folder is untrusted (exit 55) unless
 * trusted by flag or GEMINI_CLI_TRUST_WORKSPACE.
 */
export const geminiSpec: AgentCliSpec = {
  type: 'gemini',
  defaultBinary: 'gemini',
  stdinPrompt: true,
  buildArgs: ({ prompt, promptOnStdin, model, permissions, extraArgs }) => [
    ...(promptOnStdin ? [] : [`--prompt=${prompt}`]),
    '-o',
    'json',
    '--approval-mode',
    APPROVAL_MODE[permissions],
    '--skip-trust',
    ...(model === undefined ? [] : ['-m', model]),
    ...extraArgs,
  ],
  env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
  exitCodes: {
    41: 'auth_failed',
    42: 'config_error',
    44: 'config_error',
    52: 'config_error',
    53: 'agent_error',
    55: 'config_error',
    // HTTP statuses mod 256: 401 -> 145, 403 -> 147, 429 -> 173, 500/502/503/504 -> 244/246/247/248.
    145: 'auth_failed',
    147: 'auth_failed',
    173: 'rate_limited',
    244: 'overloaded',
    246: 'overloaded',
    247: 'overloaded',
    248: 'overloaded',
  },
  parseOutput: parseGeminiOutput,
  endpoint: ({ env }) => Promise.resolve(env.GOOGLE_GEMINI_BASE_URL || 'https://generativelanguage.googleapis.com'),
};

/** Reads gemini's json result `{session_id, response, stats, error?}` from stdout or stderr. */
export function parseGeminiOutput(stdout: string, stderr: string): ParsedAgentOutput {
  const json = parseJsonObject(stdout) ?? parseJsonObject(stderr);
  if (json === undefined || !('response' in json || 'error' in json || 'stats' in json)) return { structured: false };
  const parsed: ParsedAgentOutput = { structured: true };
  const response = asString(json.response);
  if (response !== undefined) parsed.response = response;
  const error = asRecord(json.error);
  if (error !== undefined) {
    parsed.isError = true;
    const code = error.code === undefined ? '' : ` (code ${String(error.code)})`;
    parsed.errorText = `${asString(error.type) ?? 'Error'}: ${asString(error.message) ?? ''}${code}`;
  }
  const models = asRecord(asRecord(json.stats)?.models);
  if (models !== undefined) readModels(models, parsed);
  return parsed;
}

/**
 * The model that did the work: the one with the most requests in the `main` role (gemini 0.61
 * splits each model's stats by role; its router and next-speaker checks run a lighter model as
 * `utility_*`), else the one with the most requests. Gemini may fall back to a smaller model.
 */
function readModels(models: Record<string, unknown>, parsed: ParsedAgentOutput): void {
  let best: { name: string; main: number; requests: number } | undefined;
  const usage: TokenUsage = {};
  for (const [name, raw] of Object.entries(models)) {
    const entry = asRecord(raw);
    const requests = asNumber(asRecord(entry?.api)?.totalRequests) ?? 0;
    const main = asNumber(asRecord(asRecord(entry?.roles)?.main)?.totalRequests) ?? 0;
    if (best === undefined || main > best.main || (main === best.main && requests > best.requests)) best = { name, main, requests };
    const tokens = asRecord(entry?.tokens);
    addTokens(usage, 'input', asNumber(tokens?.prompt) ?? asNumber(tokens?.input));
    addTokens(usage, 'output', asNumber(tokens?.candidates));
    addTokens(usage, 'total', asNumber(tokens?.total));
  }
  if (best !== undefined) parsed.model = best.name;
  if (Object.keys(usage).length > 0) parsed.usage = usage;
}
