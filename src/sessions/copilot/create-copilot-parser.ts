import path from 'node:path';
import { isRecord, parseTime, stringField } from '../is-record.js';
import { SessionBuilder } from '../session-builder.js';
import { copilotEnvironment } from './copilot-environment.js';
import type { ReadSessionOptions, SessionParser } from '../types.js';

const DATETIME = /<current_datetime>[\s\S]*?<\/current_datetime>/g;
/** Older Copilot CLIs end a shell result with its exit code in this form. */
const EXITED = /<exited with exit code (-?\d+)>\s*$/;

/**
 * The parser of a Copilot CLI session, both layouts (`~/.copilot/session-state/<id>.jsonl` and
 * `<id>/events.jsonl`): one event stream of `session.*`, `user.message`, `assistant.message`,
 * `tool.execution_start`/`_complete` (success, error, shell exit code), compactions
 * (`summaryContent`), errors (rate limit and quota types as a usage limit) and `abort`. Events a
 * sub-agent wrote (`agentId` on the event) belong to that sub-agent, linked by the call that
 * started it (`subagent.started`).
 */
export function createCopilotParser(source: string, limits: ReadSessionOptions = {}): SessionParser {
  const b = new SessionBuilder('copilot', source, limits);
  return {
    push(record) {
      if (!isRecord(record) || typeof record.type !== 'string' || !isRecord(record.data)) return b.skip();
      const at = b.seen(parseTime(record.timestamp));
      if (typeof record.agentId === 'string' && record.type !== 'subagent.started') return;
      onEvent(record.type, record.data, at, stringField(record, 'agentId'));
    },
    finish: () => b.finish(path.basename(source).replace(/\.jsonl$/, '')),
  };

  function onEvent(type: string, d: Record<string, unknown>, at: number | undefined, agentId: string | undefined): void {
    switch (type) {
      case 'session.start':
      case 'session.resume':
        return onStart(d);
      case 'system.message': {
        // The older layout's only record of its cwd (copilot-environment.ts).
        const env = copilotEnvironment(stringField(d, 'content') ?? '');
        b.meta.cwd ??= env.cwd;
        b.meta.gitRoot ??= env.gitRoot;
        return;
      }
      case 'session.model_change':
        b.meta.model = stringField(d, 'newModel') ?? b.meta.model;
        return;
      case 'user.message':
        b.text('user', (stringField(d, 'content') ?? '').replace(DATETIME, ''), at);
        b.ending = 'normal';
        return;
      case 'assistant.message':
        b.meta.model = stringField(d, 'model') ?? b.meta.model;
        b.text('assistant', stringField(d, 'content') ?? '', at);
        b.ending = 'normal';
        return;
      case 'tool.execution_start':
        b.call(stringField(d, 'toolCallId'), stringField(d, 'toolName') ?? 'unknown', d.arguments ?? {}, at);
        return;
      case 'tool.execution_complete':
        return onComplete(d, at);
      case 'session.compaction_complete':
        b.text('compaction', stringField(d, 'summaryContent') ?? '', at);
        return;
      case 'session.error':
        return b.fail(stringField(d, 'message') ?? '', stringField(d, 'errorType'), stringField(d, 'message'));
      case 'abort':
        b.ending = 'interrupted';
        return;
      case 'subagent.started': {
        const call = stringField(d, 'toolCallId');
        b.link({ id: agentId ?? call ?? 'subagent', ...(call ? { parentCallId: call } : {}) });
        return;
      }
      default:
    }
  }

  function onStart(d: Record<string, unknown>): void {
    b.meta.id ??= stringField(d, 'sessionId');
    const version = stringField(d, 'copilotVersion');
    if (version && version !== 'unknown') b.meta.clientVersion = version;
    b.meta.model = stringField(d, 'selectedModel') ?? b.meta.model;
    b.seen(parseTime(d.startTime));
    const context = isRecord(d.context) ? d.context : undefined;
    if (context) {
      b.meta.cwd ??= stringField(context, 'cwd');
      b.meta.gitRoot ??= stringField(context, 'gitRoot');
    }
  }

  function onComplete(d: Record<string, unknown>, at: number | undefined): void {
    const id = stringField(d, 'toolCallId');
    if (!id) return b.skip();
    const result = isRecord(d.result) ? d.result : undefined;
    const error = isRecord(d.error) ? stringField(d.error, 'message') : stringField(d, 'error');
    const content = result ? (stringField(result, 'content') ?? '') : '';
    const output = [content, error ?? ''].filter(Boolean).join('\n');
    const shell = isRecord(d.shellExecution) && typeof d.shellExecution.exitCode === 'number' ? d.shellExecution.exitCode : undefined;
    const exited = EXITED.exec(content)?.[1];
    const exitCode = shell ?? (exited === undefined ? undefined : Number(exited));
    b.result(id, { output, failed: d.success === false, ...(exitCode === undefined ? {} : { exitCode }) }, at);
  }
}
