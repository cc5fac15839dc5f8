/** What a failed model call tells the retry loop. */
export interface ModelErrorInfo {
  kind: 'rate_limited' | 'server_error' | 'aborted' | 'other';
  /** HTTP status when the error carries one. */
  status?: number;
  /** Server's wait hint from `retry-after-ms` or `retry-after`, when present and reasonable (0-60 s). */
  retryAfterMs?: number;
  message: string;
}

const MAX_HINT_MS = 60_000;

/**
 * Classifies an error from a model call (seed 004): 429 or RESOURCE_EXHAUSTED is a rate limit,
 * 500 or INTERNAL or ServerError a server error; both are worth retrying. Reads `status` or
 * `statusCode` and the response headers of AI SDK and fetch-style errors. Pure.
 */
export function classifyModelError(error: unknown): ModelErrorInfo {
  const e = (error ?? {}) as { name?: string; message?: string; status?: unknown; statusCode?: unknown; responseBody?: unknown };
  const message = typeof e.message === 'string' ? e.message : String(error);
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return { kind: 'aborted', message };
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  const text = `${message} ${typeof e.responseBody === 'string' ? e.responseBody : ''}`;
  const retryAfterMs = retryAfterOf(error);
  const base = { message, ...(status !== undefined ? { status } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  if (status === 429 || /\b429\b|RESOURCE_EXHAUSTED/.test(text)) return { kind: 'rate_limited', ...base };
  if (status === 500 || /\b500\b|\bINTERNAL\b|ServerError/.test(text)) return { kind: 'server_error', ...base };
  return { kind: 'other', ...base };
}

/** True for the errors seed 004 retries: rate limits and server errors. */
export function isRetryableModelError(error: unknown): boolean {
  const kind = classifyModelError(error).kind;
  return kind === 'rate_limited' || kind === 'server_error';
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
  if (Number.isFinite(ms) && ms >= 0 && ms <= MAX_HINT_MS) return ms;
  const after = get('retry-after');
  if (after === undefined) return undefined;
  const seconds = Number(after);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(after) - Date.now();
  return Number.isFinite(wait) && wait >= 0 && wait <= MAX_HINT_MS ? wait : undefined;
}
