/** What a failed model call tells the retry loop. */
export interface ModelErrorInfo {
  /**
   * `rate_limited` (429, RESOURCE_EXHAUSTED), `server_error` (5xx, INTERNAL, ServerError, overloaded),
   * `context_overflow` (the prompt is longer than the model's window), `aborted`, or `other`.
   */
  kind: 'rate_limited' | 'server_error' | 'context_overflow' | 'aborted' | 'other';
  /** HTTP status when the error (or its cause) carries one. */
  status?: number;
  /** Server's wait hint from `retry-after-ms` or `retry-after`, when present and reasonable (0-60 s). */
  retryAfterMs?: number;
  message: string;
}

/** Kinds a smaller context can help with: seed 004's rate limits and server errors, and a prompt too long. */
export const RETRYABLE_KINDS: ReadonlySet<ModelErrorInfo['kind']> = new Set(['rate_limited', 'server_error', 'context_overflow']);

const MAX_HINT_MS = 60_000;
/**
 * How providers say the prompt does not fit: OpenAI and vLLM ("maximum context length",
 * `context_length_exceeded`), Anthropic ("prompt is too long"), Gemini ("input token count …
 * exceeds"), llama.cpp ("exceeds the available context size"), LangChain's ContextOverflowError.
 */
const OVERFLOW =
  /context_length_exceeded|maximum context length|context window|prompt is too long|exceeds? the (?:maximum|available) context|input token count.{0,40}exceeds|ContextOverflowError/i;

type ErrorLike = { name?: unknown; message?: unknown; status?: unknown; statusCode?: unknown; responseBody?: unknown; cause?: unknown };

/**
 * Classifies an error from a model call (seed 004): 429 or RESOURCE_EXHAUSTED is a rate limit;
 * 5xx, 529, INTERNAL or ServerError a server error; a prompt over the model's window (400/413 with
 * the providers' wording) a context overflow. Reads `status` or `statusCode` (of the error or its
 * `cause`) and the response headers of AI SDK, OpenAI SDK, LangChain and fetch-style errors. Pure.
 */
export function classifyModelError(error: unknown): ModelErrorInfo {
  const e = (error ?? {}) as ErrorLike;
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (e.name === 'AbortError' || e.name === 'TimeoutError' || e.name === 'APIUserAbortError') return { kind: 'aborted', message };
  const status = statusOf(e) ?? statusOf(e.cause as ErrorLike | undefined);
  const text = `${String(e.name ?? '')} ${message} ${typeof e.responseBody === 'string' ? e.responseBody : ''}`;
  const retryAfterMs = retryAfterOf(error) ?? retryAfterOf(e.cause);
  const base = { message, ...(status !== undefined ? { status } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  if (status === 429) return { kind: 'rate_limited', ...base };
  if ((status === undefined || status === 400 || status === 413) && (OVERFLOW.test(text) || status === 413)) {
    return { kind: 'context_overflow', ...base };
  }
  if (status !== undefined && (status >= 500 || status === 529)) return { kind: 'server_error', ...base };
  if (/\b429\b|RESOURCE_EXHAUSTED/.test(text)) return { kind: 'rate_limited', ...base };
  if (status === undefined && /\b50\d\b|\bINTERNAL\b|ServerError|\boverloaded\b/i.test(text)) return { kind: 'server_error', ...base };
  return { kind: 'other', ...base };
}

/**
 * True for the errors a retry with a smaller context is for: rate limits, server errors, context
 * overflow, and any error its SDK marks retryable (`isRetryable: true`: the AI SDK's 408/409 and
 * network failures), so an adapter that retries leaves nothing for the SDK to resend.
 */
export function isRetryableModelError(error: unknown): boolean {
  const info = classifyModelError(error);
  if (info.kind === 'aborted') return false;
  return RETRYABLE_KINDS.has(info.kind) || (error as { isRetryable?: unknown } | null)?.isRetryable === true;
}

function statusOf(e: ErrorLike | undefined): number | undefined {
  if (!e || typeof e !== 'object') return undefined;
  if (typeof e.status === 'number') return e.status;
  return typeof e.statusCode === 'number' ? e.statusCode : undefined;
}

function retryAfterOf(error: unknown): number | undefined {
  const headers =
    (error as { responseHeaders?: unknown; headers?: unknown } | null)?.responseHeaders ?? (error as { headers?: unknown } | null)?.headers;
  const get = (name: string): string | undefined => {
    if (!headers || typeof headers !== 'object') return undefined;
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
    const value = (headers as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  };
  const ms = Number(get('retry-after-ms'));
  if (get('retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0 && ms <= MAX_HINT_MS) return ms;
  const after = get('retry-after');
  if (after === undefined) return undefined;
  const seconds = Number(after);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - Date.now();
  return Number.isFinite(wait) && wait >= 0 && wait <= MAX_HINT_MS ? wait : undefined;
}
