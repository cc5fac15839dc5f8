import type { ParsedRequest } from './api-adapter.js';
import type { TextAction } from './types.js';

/** Text for a side request that carries no tools (a title, a summary, a quota probe). */
export const SIDE_TEXT = 'ok';

/** Whether a request is a side request: no tools offered, or a JSON-mode request. */
export function isSideRequest(request: ParsedRequest): boolean {
  return request.tools.length === 0 || request.json !== undefined;
}

/**
 * The canned answer to a side request: plain text, or for a JSON-mode request an object that fits
 * its schema. Gemini CLI's router gets `model_choice: "flash"` and its next-speaker check
 * `next_speaker: "user"` (so it ends the turn instead of asking the model to continue), its
 * complexity classifier a score of 1.
 */
export function sideAnswer(request: ParsedRequest): TextAction {
  if (!request.json) return { text: SIDE_TEXT };
  const { schema } = request.json;
  return { text: JSON.stringify(schema === undefined ? KNOWN : fillSchema(schema)) };
}

const KNOWN: Record<string, unknown> = {
  reasoning: 'scripted test model',
  model_choice: 'flash',
  next_speaker: 'user',
  complexity_score: 1,
};

function fillSchema(schema: unknown): unknown {
  const s = (schema ?? {}) as { type?: string | string[]; enum?: unknown[]; properties?: Record<string, unknown>; minimum?: number };
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = String(Array.isArray(s.type) ? s.type[0] : (s.type ?? 'object')).toLowerCase();
  if (type === 'string') return 'scripted';
  if (type === 'number' || type === 'integer') return s.minimum ?? 1;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s.properties ?? {})) out[key] = key in KNOWN ? KNOWN[key] : fillSchema(value);
  return out;
}
