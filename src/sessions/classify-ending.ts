import type { SessionEnding } from './types.js';

/*
 * Usage-limit words as the clients write them when they stop a session: Claude Code ("Claude AI
 * usage limit reached", "You've hit your limit · resets 3pm", "5-hour limit reached"), Codex ("You've
 * hit your usage limit… Try again at …", "exceeded retry limit, last status: 429"), Gemini CLI
 * (RESOURCE_EXHAUSTED, "Quota exceeded") and Copilot CLI ("402 You have no quota", rate_limited). The
 * providers' phrase table says the same for a whole run's output, but loading it costs ~0.9 s (the
 * providers module), too much for a session-start hook that imports sessions.
 */
const USAGE_LIMIT =
  /usage limit|hit your (?:session |weekly |daily |monthly )?limit|limit reached|rate[ _-]?limit|too many requests|RESOURCE_EXHAUSTED|quota|\b429\b|\b402\b|out of credits|credit balance is too low/i;

/** `usage_limit` when a client's error text or code says so, else `error`. Pure. */
export function classifyEnding(message: string, code?: string): Extract<SessionEnding, 'error' | 'usage_limit'> {
  if (code !== undefined && /rate_limit|quota|usage_limit|billing/i.test(code)) return 'usage_limit';
  return USAGE_LIMIT.test(message) ? 'usage_limit' : 'error';
}
