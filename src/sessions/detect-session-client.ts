import { open } from 'node:fs/promises';
import path from 'node:path';
import type { SessionClient } from './types.js';

const SNIFF_BYTES = 64 * 1024;

/**
 * Which client wrote a session file: from where the client keeps it (`.claude/projects`,
 * `.codex/sessions`, `.gemini/tmp`, `.copilot/session-state`, an OpenCode `DB#ses_…`), else from its first record.
 * undefined when neither tells.
 */
export async function detectSessionClient(file: string): Promise<SessionClient | undefined> {
  const byPath = clientOfPath(file);
  if (byPath) return byPath;
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    return clientOfHead(buffer.subarray(0, bytesRead).toString('utf8'));
  } finally {
    await handle.close();
  }
}

function clientOfPath(file: string): SessionClient | undefined {
  const p = file.split(path.sep).join('/');
  if (p.includes('/.claude/projects/')) return 'claude';
  if (p.includes('/.codex/sessions/') || /\/rollout-[^/]*\.jsonl$/.test(p)) return 'codex';
  if (p.includes('/.gemini/tmp/')) return 'gemini';
  if (p.includes('/.copilot/session-state/')) return 'copilot';
  if (/\.db#ses_[A-Za-z0-9]+$/.test(p)) return 'opencode';
  return undefined;
}

/** The client of a file's first bytes (exported for tests of files kept elsewhere). */
export function clientOfHead(head: string): SessionClient | undefined {
  const start = head.trimStart();
  if (/^\{"type":"(session_meta|response_item|event_msg|turn_context)"/.test(start) || /"type":"session_meta"/.test(head)) return 'codex';
  if (/"type":"session\.start"/.test(head) && /"producer":"copilot-agent"/.test(head)) return 'copilot';
  if (/"sessionId":"[^"]*"/.test(head) && /"parentUuid"/.test(head)) return 'claude';
  if (/"projectHash"/.test(head) || /^\[\s*\{\s*"role"/.test(start) || /"parts"\s*:\s*\[/.test(head)) return 'gemini';
  if (/"type":"(user|assistant|summary|file-history-snapshot|queue-operation)"/.test(head) && /"sessionId"/.test(head)) return 'claude';
  return undefined;
}
