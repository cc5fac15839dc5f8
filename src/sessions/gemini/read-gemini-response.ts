import { isRecord } from '../is-record.js';
import type { RawToolResult } from '../session-builder.js';

const LABEL = /^(Command|Directory|Output|Error|Exit Code|Signal|Background PIDs|Process Group PGID): ?(.*)$/;
const WRAPPER = /^<untrusted_context>\n?|\n?<\/untrusted_context>$/g;

/**
 * A Gemini CLI call's result from its functionResponse(s): `response.output` or `response.error`,
 * without the `<untrusted_context>` wrapper; a shell result's labelled block (`Command: … Output: …
 * Error: … Exit Code: N …`) becomes its output and error text, with the exit code read. Pure.
 */
export function readGeminiResponse(result: unknown, failed: boolean): RawToolResult {
  const responses = (Array.isArray(result) ? (result as unknown[]) : [result]).flatMap((part) => {
    const response = isRecord(part) && isRecord(part.functionResponse) ? part.functionResponse.response : isRecord(part) ? part : undefined;
    return isRecord(response) ? [response] : [];
  });
  const error = responses.map((r) => r.error).find((e) => e !== undefined);
  const output = responses
    .map((r) => (typeof r.output === 'string' ? r.output : r.output === undefined ? '' : JSON.stringify(r.output)))
    .join('\n')
    .replace(WRAPPER, '');
  if (error !== undefined) {
    const text = typeof error === 'string' ? error : JSON.stringify(error);
    return { output: output ? `${output}\n${text}` : text, failed: true };
  }
  return { ...readLabelled(output), ...(failed ? { failed: true } : {}) };
}

function readLabelled(text: string): { output: string; exitCode?: number } {
  const lines = text.split('\n');
  if (!lines.some((line) => line.startsWith('Output: ') || line === 'Output:') || !lines.some((line) => /^Exit Code: /.test(line)))
    return { output: text };
  const fields = new Map<string, string[]>();
  let current: string | undefined;
  for (const line of lines) {
    const match = LABEL.exec(line);
    if (match?.[1]) {
      current = match[1];
      fields.set(current, [match[2] ?? '']);
    } else if (current) fields.get(current)?.push(line);
  }
  const value = (label: string) => fields.get(label)?.join('\n').trim() ?? '';
  const error = value('Error');
  const body = [value('Output') === '(empty)' ? '' : value('Output'), error && error !== '(none)' ? error : ''].filter(Boolean).join('\n');
  const exit = Number.parseInt(value('Exit Code'), 10);
  return { output: body, ...(Number.isNaN(exit) ? {} : { exitCode: exit }) };
}
