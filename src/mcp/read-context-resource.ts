import { FORMAT_TOKEN_CAPS, loadRefresh, type RefreshFormat } from '../refresh/light.js';
import type { ClientProfile } from './client-forwarding.js';
import type { WorkspaceState } from './workspace-state.js';

/**
 * Tokens of the JSON a client wraps a read in (`{"server":…,"uri":…,"contents":[{"uri":…,
 * "mimeType":…,"text":…}]}`), besides the escaped text itself.
 */
export const RESOURCE_ENVELOPE_TOKENS = 64;

export interface ContextRead {
  text: string;
  mimeType: 'application/json' | 'text/markdown';
}

/**
 * A task's context as a resource's text, sized so that what the client hands its model stays
 * within the format's cap: compact JSON (the narrative's markdown), fitted by the renderer to the
 * client's form of it (`profile.resources`: the text as it is, or escaped inside the read result's
 * JSON, which costs a fifth or so more). Throws what
 * refreshContext throws (NOT_FOUND for an unknown task, WORKSPACE_NOT_SET before a handshake).
 */
export async function readContextResource(
  state: WorkspaceState,
  request: { taskId: string | undefined; format: RefreshFormat; sessionId: string; profile: ClientProfile },
): Promise<ContextRead> {
  const { root, ledger } = await state.require();
  const { refreshContext } = await loadRefresh();
  const { format, profile } = request;
  const overhead = profile.resources === 'json' ? RESOURCE_ENVELOPE_TOKENS : profile.wrapperTokens;
  // One render, fitted by the renderer to the client's form of it (escaped inside the read's JSON or not).
  const result = await refreshContext({
    workspace: root,
    ledger,
    gitCache: state.registry.gitCache,
    renderWorker: state.registry.renderWorker,
    sessionId: request.sessionId,
    taskId: request.taskId,
    format,
    maxTokens: FORMAT_TOKEN_CAPS[format] - overhead,
    sent: profile.resources === 'json' ? { escaped: true } : undefined,
  });
  const text = format === 'narrative' ? result.text : JSON.stringify({ ...result.context, metadata: result.metadata });
  return { text, mimeType: format === 'narrative' ? 'text/markdown' : 'application/json' };
}
