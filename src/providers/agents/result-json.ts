import type { OutcomeKind } from '../../ledger/index.js';
import { parseEpochOrDate } from '../classify/parse-reset-at.js';
import type { TokenUsage } from '../types.js';
import { asNumber, asRecord, asString, parseJsonLines, parseJsonObject, sumTokens } from './parse-json.js';
import type { ParsedAgentOutput } from './types.js';

/** claude's assistant.error values, as outcome kinds. */
const ASSISTANT_ERRORS: Readonly<Record<string, OutcomeKind>> = {
  authentication_failed: 'auth_failed',
  rate_limit: 'rate_limited',
  overloaded: 'overloaded',
  server_error: 'overloaded',
  billing_error: 'quota_exhausted',
};

/**
 * Reads the `{type:"result", subtype, is_error, result, usage, modelUsage}` shape claude and
 * cursor-agent print in json mode, plus claude's stream-json events (`system` init with the
 * model, `assistant` with `error`, `rate_limit_event` with `resetsAt`).
 */
export function parseResultJson(stdout: string, _stderr: string): ParsedAgentOutput {
  const events = parseJsonLines(stdout);
  const single = events.length <= 1 ? parseJsonObject(stdout) : undefined;
  const all = single === undefined ? events : [single];
  const result = [...all].reverse().find((e) => e.type === 'result');
  if (result === undefined && !all.some((e) => e.type === 'assistant' || e.type === 'rate_limit_event')) {
    return { structured: false };
  }
  const parsed: ParsedAgentOutput = { structured: true };
  for (const event of all) readEvent(event, parsed);
  if (result !== undefined) readResult(result, parsed);
  return parsed;
}

function readEvent(event: Record<string, unknown>, parsed: ParsedAgentOutput): void {
  if (event.type === 'system') {
    const model = asString(event.model);
    if (model !== undefined) parsed.model = modelId(model);
  }
  if (event.type === 'assistant') {
    const model = asString(asRecord(event.message)?.model);
    if (model !== undefined && model !== '<synthetic>') parsed.model = modelId(model);
    const kind = ASSISTANT_ERRORS[asString(event.error) ?? ''];
    if (kind !== undefined) {
      parsed.kind = kind;
      parsed.isError = true;
    }
  }
  if (event.type === 'rate_limit_event') {
    const info = asRecord(event.rate_limit_info);
    const resetAt = parseEpochOrDate(info?.resetsAt);
    if (info?.status === 'rejected') {
      parsed.kind = 'rate_limited';
      parsed.isError = true;
      if (resetAt !== undefined) parsed.resetAt = resetAt;
    }
  }
}

function readResult(result: Record<string, unknown>, parsed: ParsedAgentOutput): void {
  const text = asString(result.result);
  if (text !== undefined) parsed.response = text;
  const subtype = asString(result.subtype);
  if (result.is_error === true || (subtype !== undefined && subtype !== 'success')) {
    parsed.isError = true;
    parsed.errorText = text ?? subtype ?? 'error';
  }
  const modelUsage = asRecord(result.modelUsage);
  if (modelUsage !== undefined) readModelUsage(modelUsage, parsed);
  const usage = asRecord(result.usage);
  const summed = sumTokens(asNumber(usage?.input_tokens), asNumber(usage?.output_tokens));
  if (parsed.usage === undefined && summed !== undefined) parsed.usage = summed;
}

/** The model that spent the most output tokens is the one that did the work. */
function readModelUsage(modelUsage: Record<string, unknown>, parsed: ParsedAgentOutput): void {
  let best: { name: string; output: number } | undefined;
  const usage: TokenUsage = { input: 0, output: 0, total: 0 };
  for (const [name, raw] of Object.entries(modelUsage)) {
    const entry = asRecord(raw);
    const input = asNumber(entry?.inputTokens) ?? 0;
    const output = asNumber(entry?.outputTokens) ?? 0;
    usage.input! += input;
    usage.output! += output;
    usage.total! += input + output;
    if (best === undefined || output > best.output) best = { name, output };
  }
  if (best !== undefined) {
    parsed.model = modelId(best.name);
    parsed.usage = usage;
  }
}

/**
 * The model id without claude's display suffix: `claude-opus-4-8[1m]` names the 1M-token context
 * variant in claude's own model list, not a model an API knows.
 */
function modelId(name: string): string {
  return name.replace(/\[[^\]]*\]$/, '');
}
