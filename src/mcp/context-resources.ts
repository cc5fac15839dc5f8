import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { BatonError, errorMessage, isBatonError } from '../errors/index.js';
// Light leaf files only; the refresh module itself loads on first use (refresh/load-refresh.ts).
import { FORMAT_TOKEN_CAPS, loadRefresh, resolveFormat } from '../refresh/light.js';
import type { ClientProfile } from './client-forwarding.js';
import { ContextWatcher, taskIdOf } from './context-watcher.js';
import { recentOpenTasks } from './recent-open-tasks.js';
import type { WorkspaceState } from './workspace-state.js';

/**
 * `{task_id}` alone: the SDK's template matcher would accept `{task_id}{?format}` only with a
 * `?format=` query, so the listed URIs (`baton://context/current`, `baton://context/<task>`) could
 * not be read. The handler reads the task id and `?format=` from the URI itself.
 */
export const CONTEXT_URI_TEMPLATE = 'baton://context/{task_id}';
export const CURRENT_CONTEXT_URI = 'baton://context/current';

/**
 * Exposes each task's context as a resource (`baton://context/{task_id}` and
 * `baton://context/current`, `?format=minimal|standard|detailed|narrative`) with subscriptions:
 * a subscribed context gets `notifications/resources/updated` when git HEAD or the ledger moves.
 * `resources/list` names the current context and the open tasks' (recent-open-tasks.ts); a read
 * is sized for the client (readContext); a task that does not exist fails with -32002. Must be called before the server connects (it
 * registers the subscribe capability).
 */
export function registerContextResources(
  server: McpServer,
  state: WorkspaceState,
  options: { sessionId: () => string; profile: () => ClientProfile; watchIntervalMs?: number },
): ContextWatcher {
  const watcher = new ContextWatcher(state, {
    intervalMs: options.watchIntervalMs,
    notify: (uri) => server.server.sendResourceUpdated({ uri }),
  });
  server.registerResource(
    'context',
    new ResourceTemplate(CONTEXT_URI_TEMPLATE, {
      // Gemini CLI reads only URIs this list returned: every open task a client may resume is here.
      list: async () => ({
        resources: [
          { uri: CURRENT_CONTEXT_URI, name: 'current-context', title: 'Context of the current task', mimeType: 'application/json' },
          ...(await openTaskResources(state)),
        ],
      }),
    }),
    {
      title: 'Task context',
      description:
        'refresh_context output for a task id (or "current"); add ?format=minimal|standard|detailed|narrative (default standard). Subscribe to hear when it goes stale.',
      mimeType: 'application/json',
    },
    async (uri) => {
      try {
        return { contents: [await readContext(state, uri, options.sessionId(), options.profile())] };
      } catch (error) {
        throw resourceError(uri.href, error);
      }
    },
  );
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    if (!request.params.uri.startsWith('baton://context/')) {
      throw new BatonError('INPUT_INVALID', `Cannot subscribe to ${request.params.uri}: only baton://context/… resources are watched`);
    }
    await watcher.subscribe(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    watcher.unsubscribe(request.params.uri);
    return {};
  });
  return watcher;
}

/**
 * One resource per open task, the most recently active first (recent-open-tasks.ts), when a
 * workspace is active; none when its ledger cannot be read (the list must not fail).
 */
async function openTaskResources(state: WorkspaceState) {
  if (!state.root) return [];
  try {
    const { ledger } = await state.require();
    return (await recentOpenTasks(ledger)).map((task) => ({
      uri: `baton://context/${encodeURIComponent(task.id)}`,
      name: `context-${task.id}`,
      title: `Context of task ${task.id} (${task.status}): ${task.title}`,
      mimeType: 'application/json',
    }));
  } catch {
    return [];
  }
}

/** JSON-RPC code for "resource not found" (MCP specification, resources). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A failed read as the JSON-RPC error the specification names: a task (or workspace) that does
 * not exist is "resource not found" (-32002), a bad `?format=` invalid params (-32602), anything
 * else an internal error; the message is Baton's, with what to do next.
 */
function resourceError(uri: string, error: unknown): McpError {
  const message = errorMessage(error);
  if (isBatonError(error, 'NOT_FOUND') || isBatonError(error, 'WORKSPACE_NOT_SET')) {
    const next = isBatonError(error, 'NOT_FOUND') ? " resources/list names the open tasks' contexts." : '';
    return new McpError(RESOURCE_NOT_FOUND, `Resource ${uri} not found: ${message}${next}`, { uri });
  }
  if (isBatonError(error, 'INPUT_INVALID')) return new McpError(ErrorCode.InvalidParams, message, { uri });
  return new McpError(ErrorCode.InternalError, message, { uri });
}

/**
 * Tokens of the JSON a client wraps a read in (`{"server":…,"uri":…,"contents":[{"uri":…,
 * "mimeType":…,"text":…}]}`), besides the escaped text itself.
 */
const RESOURCE_ENVELOPE_TOKENS = 64;

/**
 * A task's context as a resource's text, sized so that what the client hands its model stays
 * within the format's cap: compact JSON (the narrative's markdown), fitted by the renderer to the
 * client's form of it (`profile.resources`: the text as it is, or escaped inside the read result's
 * JSON, which costs a fifth or so more). Throws what refreshContext throws (NOT_FOUND for an
 * unknown task, WORKSPACE_NOT_SET before a handshake).
 */
async function readContext(state: WorkspaceState, uri: URL, sessionId: string, profile: ClientProfile) {
  const taskId = taskIdOf(uri.href);
  const format = resolveFormat(uri.searchParams.get('format') ?? undefined);
  const { root, ledger } = await state.require();
  const { refreshContext } = await loadRefresh();
  const overhead = profile.resources === 'json' ? RESOURCE_ENVELOPE_TOKENS : profile.wrapperTokens;
  const result = await refreshContext({
    workspace: root,
    ledger,
    gitCache: state.registry.gitCache,
    renderWorker: state.registry.renderWorker,
    sessionId,
    taskId,
    format,
    maxTokens: FORMAT_TOKEN_CAPS[format] - overhead,
    sent: profile.resources === 'json' ? { escaped: true } : undefined,
  });
  const text = format === 'narrative' ? result.text : JSON.stringify({ ...result.context, metadata: result.metadata });
  return { uri: uri.href, mimeType: format === 'narrative' ? 'text/markdown' : 'application/json', text };
}
