import { copilotEnvironment } from './copilot/copilot-environment.js';
import { isRecord } from './is-record.js';
import { readJsonLines } from './read-json-lines.js';

/** Bytes of a first line read at most to find a cwd (Codex's session_meta holds its instructions). */
const HEAD_MAX_BYTES = 4 * 1024 * 1024;

/** Records read at most for a cwd: Copilot's older layout names it in its first system message. */
const HEAD_MAX_RECORDS = 8;

/**
 * The cwd a Codex rollout or a Copilot CLI session names in its first records (Codex
 * `session_meta.payload.cwd`, Copilot `session.start` `data.context.cwd`, or in Copilot's older
 * layout the `<environment_context>` of its first `system.message`); undefined when none names
 * one or the file cannot be read.
 */
export async function readHeadCwd(file: string): Promise<string | undefined> {
  let read = 0;
  try {
    for await (const line of readJsonLines(file, { maxLineBytes: HEAD_MAX_BYTES })) {
      const cwd = cwdOf(line.value);
      if (cwd !== undefined) return cwd;
      read += 1;
      // A Codex rollout's first line is its session_meta: no later line is looked at.
      if (read >= HEAD_MAX_RECORDS || (isRecord(line.value) && line.value.type === 'session_meta')) return undefined;
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
  if (value.type === 'system.message' && isRecord(data) && typeof data.content === 'string') return copilotEnvironment(data.content).cwd;
  return undefined;
}
