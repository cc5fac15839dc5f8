import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiAdapter, ParsedRequest } from './api-adapter.js';
import { anthropicApi } from './apis/anthropic.js';
import { geminiApi } from './apis/gemini.js';
import { openAiChatApi } from './apis/openai-chat.js';
import { openAiResponsesApi } from './apis/openai-responses.js';
import { replyOf } from './reply-of.js';
import { isSideRequest, sideAnswer } from './side-requests.js';
import type { LoggedRequest, ModelAction, ModelRequestView, Respond } from './types.js';
import { toView } from './to-view.js';
import { parseJson, readBodyText, sendJson } from './wire.js';

const APIS: readonly ApiAdapter[] = [anthropicApi, geminiApi, openAiResponsesApi, openAiChatApi];

export interface ModelServerOptions {
  /** The script: called once per model request with its normalized view. */
  respond: Respond;
  /** Also hand side requests (titles, routing, quota probes; `view.side`) to `respond`. @default false */
  scriptSideRequests?: boolean;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT`, without a path: each client set-up adds what its SDK expects (`/v1`, nothing). */
  url: string;
  /** Every request, in arrival order. */
  readonly requests: readonly LoggedRequest[];
  /** The views of the model requests the script answered (side requests left out unless scripted). */
  readonly turns: readonly ModelRequestView[];
  /**
   * Script errors: a tool the client did not offer, `respond` throwing. Each was answered with HTTP
   * 400 (which no client retries); assert `expect(server.problems).toEqual([])`.
   */
  readonly problems: readonly string[];
  close(): Promise<void>;
}

/** Starts the scripted model server on 127.0.0.1, port 0 (see index.ts for how to use it). */
export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const requests: LoggedRequest[] = [];
  const turns: ModelRequestView[] = [];
  const problems: string[] = [];
  const started = performance.now();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const bodyText = await readBodyText(req);
    const entry: LoggedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path: url.pathname,
      headers: headersOf(req),
      bodyText,
      body: parseJson(bodyText),
      status: 200,
      at: performance.now() - started,
    };
    requests.push(entry);
    const api = APIS.find((a) => a.route(entry.method, url.pathname) !== undefined);
    const route = api?.route(entry.method, url.pathname);
    if (!api || !route) return answerOther(res, entry);
    if (route === 'count') return sendJson(res, api.countReply());
    const request = api.parse(entry.body ?? {}, url.pathname);
    const view = toView(api.api, request, entry, isSideRequest(request));
    entry.view = view;
    const scripted = !view.side || options.scriptSideRequests === true;
    if (scripted) turns.push(view);
    const action = scripted ? await runScript(options.respond, view, problems) : sideAnswer(request);
    entry.action = action;
    entry.status = answer(res, api, request, action, entry, problems);
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      problems.push(`server error on ${req.url}: ${String(error)}`);
      if (!res.headersSent) sendJson(res, { error: { message: String(error) } }, 400);
      else res.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    turns,
    problems,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

async function runScript(respond: Respond, view: ModelRequestView, problems: string[]): Promise<ModelAction> {
  try {
    return await respond(view);
  } catch (error) {
    const message = `respond threw on request ${view.path}: ${error instanceof Error ? error.message : String(error)}`;
    problems.push(message);
    return { fail: { status: 400, message } };
  }
}

/** Writes the action in the API's shape; returns the HTTP status sent. */
function answer(
  res: ServerResponse,
  api: ApiAdapter,
  request: ParsedRequest,
  action: ModelAction,
  entry: LoggedRequest,
  problems: string[],
): number {
  if ('fail' in action) {
    const { status, message = `scripted HTTP ${status}`, retryAfter, headers = {}, body } = action.fail;
    const extra = retryAfter === undefined ? headers : { 'retry-after': String(retryAfter), ...headers };
    sendJson(res, body ?? api.errorBody(status, message), status, extra);
    return status;
  }
  const reply = replyOf(action, request.tools, `${api.api === 'anthropic' ? 'toolu' : 'call'}_${entry.index}`);
  if ('error' in reply) {
    problems.push(`request ${entry.index} (${entry.path}): ${reply.error}`);
    sendJson(res, api.errorBody(400, reply.error), 400);
    return 400;
  }
  api.reply(res, reply, request);
  return 200;
}

/** Model lists get a list that fits every vendor's shape; anything else a 404 (logged). */
function answerOther(res: ServerResponse, entry: LoggedRequest): void {
  if (entry.method === 'GET' && /\/models\/?$/.test(entry.path)) {
    entry.status = 200;
    const data = [{ id: 'scripted-model', object: 'model', type: 'model', created: 0, owned_by: 'scripted', display_name: 'Scripted' }];
    return sendJson(res, { object: 'list', data, has_more: false, models: [{ name: 'models/scripted-model' }] });
  }
  entry.status = 404;
  sendJson(res, { error: { message: `the scripted model server does not serve ${entry.method} ${entry.path}` } }, 404);
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
