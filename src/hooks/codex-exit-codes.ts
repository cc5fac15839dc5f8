import { readTranscript } from './read-transcript.js';

/** @default 8 MiB: rollout read at most per fold (the newest part when more was written). */
export const MAX_ROLLOUT_READ = 8 * 1024 * 1024;

/**
 * Codex's PostToolUse carries no exit code; its rollout (the hook's `transcript_path`) does, in
 * the completed command item (`"exit_code": N`, keyed by the call id the hook received as
 * `tool_use_id`). Reads the rollout from `fromByte` and returns the exit codes it finds, with the
 * offset to start from next time. A rollout that cannot be read gives no codes (the failures then
 * stay unknown, never invented).
 */
export async function readCodexExitCodes(file: string, fromByte: number): Promise<{ codes: Map<string, number>; endByte: number }> {
  const codes = new Map<string, number>();
  const range = await readTranscript(file, fromByte, MAX_ROLLOUT_READ);
  if (!range) return { codes, endByte: fromByte };
  const lastNewline = range.bytes.lastIndexOf(0x0a);
  if (lastNewline < 0) return { codes, endByte: range.start };
  for (const line of range.bytes.subarray(0, lastNewline).toString('utf8').split('\n')) {
    if (line.includes('"exit_code"')) collectExitCode(line, codes);
  }
  return { codes, endByte: range.start + lastNewline + 1 };
}

function collectExitCode(line: string, codes: Map<string, number>): void {
  try {
    const record = JSON.parse(line) as { payload?: Record<string, unknown> };
    const payload = record.payload ?? {};
    // item_completed { item: { id, exit_code } } (0.171) or exec_command_end { call_id, exit_code }.
    const item = (payload.item as Record<string, unknown> | undefined) ?? payload;
    const id = typeof item.id === 'string' ? item.id : typeof item.call_id === 'string' ? item.call_id : undefined;
    const code = item.exit_code;
    if (id && typeof code === 'number') codes.set(id, code);
  } catch {
    // a line Codex is still writing, or not JSON: skipped
  }
}
