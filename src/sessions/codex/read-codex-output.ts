import { isRecord, parseJson } from '../is-record.js';
import type { RawToolResult } from '../session-builder.js';

/** Header lines Codex puts above a command's output (shell_command, exec_command, write_stdin). */
const HEADER_LINE =
  /^(?:Chunk ID|Wall time|Process exited with code|Process running with session ID|Original token count|Exit code|Total output lines)\b/;
const EXIT = /^(?:Exit code:|Process exited with code)\s*(-?\d+)/m;
/** How Codex words a call it could not run (its tool layer, not the command). */
const TOOL_ERROR = /^(?:apply_patch verification failed|execution error|error:|failed in sandbox|aborted)/i;

/**
 * A Codex call's result, from the three output forms its generations wrote: a JSON string
 * `{output, metadata: {exit_code}}` (shell, apply_patch), a text with a header (`Exit code: N` /
 * `Process exited with code N` … `Output:`; shell_command, exec_command, write_stdin), or an object
 * `{content, success}`. The header is removed from the output once its exit code is read. Pure.
 */
export function readCodexOutput(raw: unknown): RawToolResult {
  if (isRecord(raw)) {
    const content = typeof raw.content === 'string' ? raw.content : JSON.stringify(raw.content ?? '');
    return { output: content, ...(raw.success === false ? { failed: true } : {}) };
  }
  const text = typeof raw === 'string' ? raw : '';
  const json = text.startsWith('{') ? parseJson(text) : undefined;
  if (isRecord(json) && typeof json.output === 'string') {
    const exit = isRecord(json.metadata) && typeof json.metadata.exit_code === 'number' ? json.metadata.exit_code : undefined;
    return {
      output: json.output,
      ...(exit === undefined ? {} : { exitCode: exit }),
      ...(TOOL_ERROR.test(json.output.trimStart()) ? { failed: true } : {}),
    };
  }
  const { header, body } = splitHeader(text);
  const exit = EXIT.exec(header)?.[1];
  if (exit !== undefined) return { output: body, exitCode: Number(exit) };
  return { output: body, ...(TOOL_ERROR.test(body.trimStart()) ? { failed: true } : {}) };
}

function splitHeader(text: string): { header: string; body: string } {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && HEADER_LINE.test(lines[i] ?? '')) i += 1;
  if (i === 0) return { header: '', body: text };
  const header = lines.slice(0, i).join('\n');
  return { header, body: lines.slice(lines[i] === 'Output:' ? i + 1 : i).join('\n') };
}
