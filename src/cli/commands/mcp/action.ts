import path from 'node:path';
import { openLedger } from '../../../ledger/index.js';
import { type BatonMcpServerOptions, parseForwardingOverride, serveStdio, WorkspaceRegistry } from '../../../mcp/light.js';
import { GitCache, RenderWorker } from '../../../refresh/light.js';
import { BATON_VERSION as VERSION } from '../../../version/index.js';
import { EXIT_OK, resolveLedgerSpec, type CliIO } from '../../context.js';
import type { McpCliOptions } from './options.js';

export async function runMcp(io: CliIO, options: McpCliOptions): Promise<number> {
  // --config is checked before anything starts (a bad file exits 2 as in every command); its ledger is used.
  const spec = options.config === undefined ? (options.ledger ?? io.env.BATON_LEDGER) : await resolveLedgerSpec(io, options);
  const forwards = parseForwardingOverride(io.env.BATON_MCP_FORWARDS);
  const ttl = Number(io.env.BATON_GIT_CACHE_TTL_MS);
  const gitCache = new GitCache(Number.isFinite(ttl) && ttl >= 0 && io.env.BATON_GIT_CACHE_TTL_MS ? { ttlMs: ttl } : {});
  const workspace = options.workspace ? path.resolve(io.cwd, options.workspace) : undefined;
  // A stdio server is one client's, started for its session, and its first call is usually
  // refresh_context. Once the server's code is loaded, the render thread loads the tokenizer and
  // secret rules while this thread connects and answers `initialize`; git is read meanwhile, at a
  // low CPU priority (warm-up.ts says why).
  const renderWorker = options.http ? undefined : new RenderWorker();
  renderWorker?.warm();
  if (renderWorker && workspace) void gitCache.get(workspace, { background: true }).catch(() => undefined);
  // The ledger follows the workspace a client hands over, unless one was named explicitly.
  const registry = new WorkspaceRegistry((root) => openLedger({ spec, cwd: root }), gitCache);
  registry.renderWorker = renderWorker;
  const common: BatonMcpServerOptions = { registry, workspace, version: VERSION, forwards };
  try {
    if (!options.http) {
      await serveStdio(common);
      return EXIT_OK;
    }
    // The HTTP transport loads for --http only.
    const { serveMcpHttp } = await import('./serve-mcp-http.js');
    return await serveMcpHttp(io, options, common);
  } finally {
    await registry.close();
  }
}
