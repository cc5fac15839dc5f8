import path from 'node:path';
import { isRecord, parseTime, partsText, stringField } from '../is-record.js';
import { type RawToolResult, SessionBuilder } from '../session-builder.js';
import type { ReadSessionOptions, SessionParser } from '../types.js';

/** The set-up message Gemini CLI sends first, which the user did not type. */
const SETUP = /^\s*(?:<session_context>|This is the Gemini CLI\. We are setting up the context)/;
/** Gemini CLI appends the files an `@path` named after this line; the prompt is what comes before. */
const REFERENCED = /\n?--- Content from referenced files ---[\s\S]*$/;

/**
 * The parser of a Gemini CLI session, whatever its layout: the chat recording's messages (`user`,
 * `gemini` with `toolCalls`, `info`, `error`; one JSON document before 0.5x, JSONL with `$set`
 * updates and rewritten messages since), its header (id, start, title), and a `/chat save`
 * checkpoint's `Content[]` (`functionCall` / `functionResponse` parts, matched by id, else by name).
 * A message written again under the same id adds only what it did not have.
 */
export function createGeminiParser(source: string, limits: ReadSessionOptions = {}): SessionParser {
  const b = new SessionBuilder('gemini', source, limits);
  const texts = new Set<string>();
  const open = new Map<string, string[]>();
  let generated = 0;

  const push = (record: unknown): void => {
    if (!isRecord(record)) return b.skip();
    if (isRecord(record.$set)) return applySet(record.$set);
    if (Array.isArray(record.parts) && typeof record.role === 'string') return onContent(record);
    if (typeof record.type === 'string' && record.type !== 'main' && record.type !== 'subagent') return onMessage(record);
    if (['sessionId', 'startTime', 'lastUpdated', 'projectHash', 'summary'].some((key) => key in record)) return onHeader(record);
    b.skip();
  };

  return {
    push,
    finish: () => b.finish(path.basename(source).replace(/\.jsonl?$/, '')),
  };

  function applySet(set: Record<string, unknown>): void {
    onHeader(set);
    if (Array.isArray(set.messages)) for (const message of set.messages as unknown[]) push(message);
  }

  function onHeader(h: Record<string, unknown>): void {
    b.meta.id ??= stringField(h, 'sessionId');
    b.seen(parseTime(h.startTime));
    b.seen(parseTime(h.lastUpdated));
    const summary = stringField(h, 'summary');
    if (summary) b.meta.title = summary;
  }

  function onMessage(m: Record<string, unknown>): void {
    const at = parseTime(m.timestamp);
    const id = stringField(m, 'id');
    const model = stringField(m, 'model');
    if (model) b.meta.model = model;
    const text = partsText(m.content);
    const fresh = text.length > 0 && !texts.has(`${id ?? ''}:${text}`);
    if (fresh) texts.add(`${id ?? ''}:${text}`);
    switch (m.type) {
      case 'user':
        if (fresh && !SETUP.test(text)) userPrompt(text, at);
        return;
      case 'gemini':
        if (fresh) b.text('assistant', text, at);
        for (const call of Array.isArray(m.toolCalls) ? (m.toolCalls as unknown[]) : []) if (isRecord(call)) onToolCall(call, at);
        b.ending = 'normal';
        return;
      case 'info':
        if (/cancel/i.test(text)) b.ending = 'interrupted';
        return;
      case 'error':
        return b.fail(text);
      default:
        return; // warning and newer kinds: nothing a session needs
    }
  }

  function userPrompt(text: string, at: number | undefined): void {
    b.text('user', text.replace(REFERENCED, ''), at);
    b.ending = 'normal';
  }

  function onToolCall(call: Record<string, unknown>, at: number | undefined): void {
    const id = stringField(call, 'id') ?? `${stringField(call, 'name') ?? 'tool'}#${(generated += 1)}`;
    b.call(id, stringField(call, 'name') ?? 'unknown', call.args ?? {}, parseTime(call.timestamp) ?? at);
    // A message written while its call still ran has no result yet: its later copy brings it.
    const failed = call.status === 'error' || call.status === 'cancelled';
    if (call.result !== undefined || failed) b.result(id, readGeminiResponse(call.result, failed), parseTime(call.timestamp));
  }

  function onContent(c: Record<string, unknown>): void {
    const text = partsText(c.parts);
    if (c.role === 'user' && text.length > 0 && !SETUP.test(text)) userPrompt(text, undefined);
    else if (c.role === 'model' && text.length > 0) b.text('assistant', text);
    for (const part of c.parts as unknown[]) {
      if (!isRecord(part)) continue;
      if (isRecord(part.functionCall)) checkpointCall(part.functionCall);
      else if (isRecord(part.functionResponse)) checkpointResult(part.functionResponse);
    }
  }

  function checkpointCall(call: Record<string, unknown>): void {
    const name = stringField(call, 'name') ?? 'unknown';
    const id = stringField(call, 'id') ?? `${name}#${(generated += 1)}`;
    open.set(name, [...(open.get(name) ?? []), id]);
    b.call(id, name, call.args ?? {});
    b.ending = 'normal';
  }

  function checkpointResult(response: Record<string, unknown>): void {
    const name = stringField(response, 'name') ?? 'unknown';
    const queue = open.get(name) ?? [];
    const given = stringField(response, 'id');
    const id = given !== undefined && b.callById(given) ? given : queue[0];
    open.set(
      name,
      queue.filter((q) => q !== id),
    );
    if (id !== undefined) b.result(id, readGeminiResponse([{ functionResponse: response }], false));
    else b.skip();
  }
}

const LABEL = /^(Command|Directory|Output|Error|Exit Code|Signal|Background PIDs|Process Group PGID): ?(.*)$/;
const WRAPPER = /^<untrusted_context>\n?|\n?<\/untrusted_context>$/g;

/**
 * A Gemini CLI call's result from its functionResponse(s): `response.output` or `response.error`,
 * without the `<untrusted_context>` wrapper; a shell result's labelled block (`Command: … Output: …
 * Error: … Exit Code: N …`) becomes its output and error text, with the exit code read. Pure.
 */
function readGeminiResponse(result: unknown, failed: boolean): RawToolResult {
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
