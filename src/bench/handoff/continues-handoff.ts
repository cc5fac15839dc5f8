import { describeToolCall } from '../../vocabulary/index.js';
import type { AgentSession } from '../../sessions/index.js';
import { truncateToTokens } from '../../tokens/index.js';

/** The size continues' standard handoff reaches on real sessions (issue 37: a median 4,237 tokens). */
export const CONTINUES_TOKENS = 4096;
const RECENT_MESSAGES = 10;
const MESSAGE_CHARS = 800;
const SAMPLES_PER_TOOL = 3;

/**
 * A markdown handoff built the way `continues` builds its standard one (its public source): a
 * session table, the first request as the summary, the recent conversation (the last ten
 * messages, each cut), the files modified, tool activity (per tool: how often, and samples of its
 * calls) and the pending tasks, cut to about 4k tokens. The benchmark's peer baseline. Pure.
 */
export function continuesHandoff(session: AgentSession): string {
  const calls = session.events.flatMap((e) => (e.type === 'tool' ? [e.call] : []));
  const messages = session.events.flatMap((e) =>
    e.type === 'user' ? [`**User:** ${cut(e.text)}`] : e.type === 'assistant' ? [`**Assistant:** ${cut(e.text)}`] : [],
  );
  const firstRequest = session.events.find((e) => e.type === 'user');
  const files = [...new Set(calls.filter((c) => c.kind === 'edit' || c.kind === 'write').flatMap((c) => c.paths))];
  const byTool = new Map<string, string[]>();
  for (const c of calls) byTool.set(c.name, [...(byTool.get(c.name) ?? []), describeToolCall(c.name, c.args).key ?? '']);
  const pending = calls.flatMap((c) => c.plan ?? []).filter((p) => p.status !== 'completed');
  const lines = [
    '# Session Handoff Context',
    '',
    '| | |',
    '|---|---|',
    `| Source | ${session.client} |`,
    `| Session | ${session.id} |`,
    `| Working directory | ${session.cwd ?? ''} |`,
    '',
    '## Summary',
    firstRequest?.type === 'user' ? cut(firstRequest.text) : '',
    '',
    '## Recent Conversation',
    ...messages.slice(-RECENT_MESSAGES),
    '',
    '## Files Modified',
    ...files.map((f) => `- ${f}`),
    '',
    '## Tool Activity',
    ...[...byTool.entries()].map(
      ([name, keys]) =>
        `- **${name}** (${keys.length}): ${keys
          .slice(-SAMPLES_PER_TOOL)
          .map((k) => `\`${k.slice(0, 120)}\``)
          .join(', ')}`,
    ),
    '',
    '## Pending Tasks',
    ...[...new Set(pending.map((p) => p.text))].map((t) => `- [ ] ${t}`),
    '',
    'Continue from where the previous session left off.',
  ];
  return truncateToTokens(lines.join('\n'), CONTINUES_TOKENS);
}

function cut(text: string): string {
  return text.length <= MESSAGE_CHARS ? text : `${text.slice(0, MESSAGE_CHARS)}…`;
}
