import type { IncomingMessage, ServerResponse } from 'node:http';
import { BatonError, errorMessage, isBatonError } from '../../errors/index.js';
import { getLogger } from '../../observability/index.js';
import { runPanel, type RunPanelOptions } from '../run-panel.js';
import type { PanelConfig } from '../types.js';
import { panelRequestSchema } from './panel-request-schema.js';

/** @default 1 MiB: far above any question, small enough to refuse a flood. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** What `POST /panel` runs with: the loaded panel and runPanel's options except the per-request ones. */
export interface PanelRequestContext {
  config: PanelConfig;
  runOptions: Omit<RunPanelOptions, 'signal' | 'onToken' | 'onAgentStart' | 'onAgentEnd' | 'attribution'>;
  /** @default DEFAULT_MAX_BODY_BYTES */
  maxBodyBytes?: number;
}

/**
 * `POST /panel`: JSON `{question, attribution?}` in; the PanelResult as JSON out, or server-sent
 * events (`agent_start`, `token`, `agent_end`, `done`, or `error`) when the request sends
 * `Accept: text/event-stream` or `?stream=1`. Bad bodies get 400 with a message naming the
 * field. A client that disconnects cancels the panel.
 */
export async function handlePanelRequest(req: IncomingMessage, res: ServerResponse, context: PanelRequestContext): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req, context.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES));
  } catch (error) {
    const tooLarge = isBatonError(error) && error.details.status === 413;
    sendJson(
      res,
      tooLarge ? 413 : 400,
      errorBody('INPUT_INVALID', tooLarge ? errorMessage(error) : `Request body is not valid JSON: ${errorMessage(error)}`),
    );
    return;
  }
  const parsed = panelRequestSchema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
    sendJson(res, 400, errorBody('INPUT_INVALID', `Invalid request body: ${problems.join('; ')} (expected {"question": "…"})`));
    return;
  }
  const { question, attribution } = parsed.data;
  const controller = new AbortController();
  let finished = false;
  res.on('close', () => {
    if (!finished) controller.abort();
  });
  const url = new URL(req.url ?? '/', 'http://localhost');
  const stream = (req.headers.accept ?? '').includes('text/event-stream') || ['1', 'true'].includes(url.searchParams.get('stream') ?? '');
  const base = { ...context.runOptions, signal: controller.signal, attribution };
  try {
    if (!stream) {
      const result = await runPanel(context.config, question, base);
      finished = true;
      sendJson(res, 200, result);
      return;
    }
    startSse(res);
    const result = await runPanel(context.config, question, {
      ...base,
      onAgentStart: (event) => writeSse(res, 'agent_start', event),
      onToken: (event) => writeSse(res, 'token', event),
      onAgentEnd: (answer) => writeSse(res, 'agent_end', answer),
    });
    finished = true;
    writeSse(res, 'done', result);
    res.end();
  } catch (error) {
    finished = true;
    getLogger().error({ err: error }, 'panel request failed');
    const code = isBatonError(error) ? error.code : 'INTERNAL';
    const status = isBatonError(error) && error.isUserError ? 400 : 500;
    if (res.headersSent) {
      writeSse(res, 'error', errorBody(code, errorMessage(error)).error);
      res.end();
    } else sendJson(res, status, errorBody(code, errorMessage(error)));
  }
}

/** Sends a JSON response. */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(`${JSON.stringify(value)}\n`);
}

/** The error shape every non-2xx response of the server uses. */
export function errorBody(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      throw new BatonError('INPUT_INVALID', `Request body is larger than ${maxBytes} bytes`, { details: { status: 413 } });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts a server-sent events response. */
function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies such as nginx buffer responses unless told not to, which would hold every token back.
    'x-accel-buffering': 'no',
  });
}

/** Writes one event; JSON data never contains a raw newline, so one `data:` line is enough. */
function writeSse(res: ServerResponse, event: string, data: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
