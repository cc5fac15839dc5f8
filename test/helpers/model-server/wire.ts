import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- four vendors' wire formats, read loosely on purpose and checked by the views' tests.
export type Wire = Record<string, any>;

/** A tool call ready to put on the wire: its name resolved against what the client offered. */
export interface ResolvedCall {
  id: string;
  name: string;
  namespace?: string;
  kind: 'function' | 'custom' | 'tool_search';
  args: Record<string, unknown> | string;
}

/** The model's answer to render in one API's shape. */
export interface ModelReply {
  text?: string;
  calls: ResolvedCall[];
  /** Token counts to report (the action's `usage`); the adapters default to 100 in, 20 out. */
  usage?: { inputTokens: number; outputTokens?: number };
}

/** The usage a reply reports: the action's, else 100 in and 20 out. */
export function usageOf(reply: ModelReply): { input: number; output: number } {
  return { input: reply.usage?.inputTokens ?? 100, output: reply.usage?.outputTokens ?? 20 };
}

const decoders: Record<string, ((body: Buffer) => Promise<Buffer>) | undefined> = {
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
  // zstd: Node 22.15+ only (Codex compresses request bodies only for OpenAI's own endpoints).
  zstd: 'zstdDecompress' in zlib ? promisify((zlib as unknown as { zstdDecompress: typeof zlib.gunzip }).zstdDecompress) : undefined,
};

/** The whole request body as text, decompressed per `content-encoding`. */
export async function readBodyText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body: Buffer = Buffer.concat(chunks);
  const encoding = String(req.headers['content-encoding'] ?? '').trim();
  if (encoding && encoding !== 'identity') {
    const decode = decoders[encoding];
    if (!decode) throw new Error(`request body in unsupported content-encoding ${encoding}`);
    body = await decode(body);
  }
  return body.toString('utf8');
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function sendJson(res: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts a server-sent event stream; `send(event, data)` writes one event (`event:` line only when named). */
export function openSse(res: ServerResponse): { send(event: string | undefined, data: unknown): void; end(): void } {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return {
    send: (event, data) => {
      const payload = typeof data === 'string' ? data : JSON.stringify(data);
      res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
    },
    end: () => res.end(),
  };
}

/** Text of a content value that may be a string or a list of typed blocks/parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: Wire) => (typeof part === 'string' ? part : typeof part?.text === 'string' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** JSON arguments from a wire string, or the string itself when it is not a JSON object. */
export function parseArgs(raw: unknown): Record<string, unknown> | string {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== 'string') return {};
  const parsed = parseJson(raw);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : raw;
}

/** Arguments as the JSON string the OpenAI formats carry. */
export function argsJson(args: Record<string, unknown> | string): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}
