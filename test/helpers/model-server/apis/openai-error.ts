/** An error body in the OpenAI shape (chat completions and the Responses API share it). */
export function openAiErrorBody(status: number, message: string): unknown {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, code: type, param: null } };
}
