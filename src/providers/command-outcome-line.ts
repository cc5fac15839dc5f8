import * as z from 'zod';
import { OUTCOME_KINDS } from '../ledger/index.js';
import { parseJsonLines } from './agents/parse-json.js';
import type { ParsedAgentOutput } from './agents/types.js';
import { parseEpochOrDate } from './classify/parse-reset-at.js';

const outcomeLineSchema = z.object({
  outcome: z.enum(OUTCOME_KINDS),
  resetAt: z.union([z.string(), z.number()]).optional(),
  model: z.string().optional(),
  response: z.string().optional(),
  reason: z.string().optional(),
  usage: z.object({ input: z.number().optional(), output: z.number().optional(), total: z.number().optional() }).optional(),
});

/**
 * Reads a command agent's optional last stdout line `{"outcome":…,"resetAt":…}`. Without one, the
 * result is unstructured and the rest of stdout is the response.
 */
export function parseCommandOutput(stdout: string): ParsedAgentOutput {
  const trimmed = stdout.trimEnd();
  const cut = trimmed.lastIndexOf('\n');
  const last = trimmed.slice(cut + 1).trim();
  const before = cut === -1 ? '' : trimmed.slice(0, cut);
  const result = outcomeLineSchema.safeParse(parseJsonLines(last)[0]);
  if (!result.success) return { structured: false, response: trimmed };
  const line = result.data;
  const parsed: ParsedAgentOutput = { structured: true, kind: line.outcome };
  const resetAt = parseEpochOrDate(line.resetAt);
  if (resetAt !== undefined) parsed.resetAt = resetAt;
  if (line.model !== undefined) parsed.model = line.model;
  if (line.usage !== undefined) parsed.usage = line.usage;
  parsed.response = line.response ?? before;
  if (line.outcome !== 'ok') {
    parsed.isError = true;
    if (line.reason !== undefined) parsed.errorText = line.reason;
  }
  return parsed;
}
