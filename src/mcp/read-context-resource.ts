import { FORMAT_TOKEN_CAPS, loadRefresh, type RefreshFormat } from '../refresh/light.js';
import type { ClientProfile } from './client-forwarding.js';
import { renderToFit } from './render-to-fit.js';
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
 * within the format's cap: compact JSON (the narrative's markdown), rendered again within a smaller
 * budget while the client's form of it (`profile.resources`: the text as it is, or escaped inside
 * the read result's JSON, which costs a fifth or so more) counts over the cap. Throws what
 * refreshContext throws (NOT_FOUND for an unknown task, WORKSPACE_NOT_SET before a handshake).
 */
export async function readContextResource(
  state: WorkspaceState,
  request: { taskId: string | undefined; format: RefreshFormat; sessionId: string; profile: ClientProfile },
): Promise<ContextRead> {
  const { root, ledger } = await state.require();
  const [{ refreshContext }, { countTokens }] = await Promise.all([loadRefresh(), import('../tokens/index.js')]);
  const { format, profile } = request;
  const cap = FORMAT_TOKEN_CAPS[format];
  const overhead = profile.resources === 'json' ? RESOURCE_ENVELOPE_TOKENS : profile.wrapperTokens;
  const sentTokens = (text: string) => overhead + countTokens(profile.resources === 'json' ? JSON.stringify(text) : text);
  const render = async (maxTokens: number | undefined) => {
    const result = await refreshContext({
      workspace: root,
      ledger,
      gitCache: state.registry.gitCache,
      renderWorker: state.registry.renderWorker,
      sessionId: request.sessionId,
      taskId: request.taskId,
      format,
      maxTokens,
    });
    return format === 'narrative' ? result.text : JSON.stringify({ ...result.context, metadata: result.metadata });
  };
  const text = await renderToFit(render, { cap, budget: cap - overhead, overshoot: (sent) => sentTokens(sent) / cap });
  return { text, mimeType: format === 'narrative' ? 'text/markdown' : 'application/json' };
}
