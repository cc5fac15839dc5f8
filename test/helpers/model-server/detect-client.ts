import type { AgentClient } from './types.js';

/** Which agent CLI sent a request, from the headers each one sets. */
export function detectClient(headers: Record<string, string>): AgentClient {
  const agent = headers['user-agent'] ?? '';
  if (/claude-cli|claude-code/i.test(agent) || headers['x-app'] === 'cli') return 'claude';
  if (/gemini-?cli/i.test(agent)) return 'gemini';
  if (/^opencode\//i.test(agent)) return 'opencode';
  if (/^codex/i.test(headers.originator ?? '') || /^codex/i.test(agent)) return 'codex';
  if (headers['x-interaction-type'] !== undefined || headers['x-initiator'] !== undefined || /copilot/i.test(agent)) return 'copilot';
  return 'unknown';
}
