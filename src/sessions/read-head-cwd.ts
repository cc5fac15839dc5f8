import { isRecord } from './is-record.js';
import { readJsonLines } from './read-json-lines.js';

/** Bytes of a first line read at most to find a cwd (Codex's session_meta holds its instructions). */
const HEAD_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The cwd a Codex rollout or a Copilot CLI session names in its first record (Codex
 * `session_meta.payload.cwd`, Copilot `session.start` `data.context.cwd`); undefined when the
 * first record names none (Copilot's older layout) or the file cannot be read.
 */
export async function readHeadCwd(file: string): Promise<string | undefined> {
  try {
    for await (const line of readJsonLines(file, { maxLineBytes: HEAD_MAX_BYTES })) {
      return cwdOf(line.value);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function cwdOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const payload = value.payload;
  if (isRecord(payload) && typeof payload.cwd === 'string') return payload.cwd;
  const data = value.data;
  const context = isRecord(data) ? data.context : undefined;
  if (isRecord(context) && typeof context.cwd === 'string') return context.cwd;
  return undefined;
}
