import path from 'node:path';
// A leaf file (no SDK): bad input is reported before anything starts.
import { parseForwardingOverride } from '../../../mcp/client-forwarding.js';
// Light files only until the render worker is started: the ledger and the MCP SDK load after it.
import { GitCache } from '../../../refresh/git-cache.js';
import { RenderWorker } from '../../../refresh/render-worker.js';
import { BATON_VERSION as VERSION } from '../../../version/index.js';
import { EXIT_OK, parsePort, parsePositiveInt, resolveLedgerSpec, type CliIO } from '../../context.js';
import type { McpCliOptions } from './options.js';

export async function runMcp(io: CliIO, options: McpCliOptions): Promise<number> {
  // --config is checked before anything starts (a bad file exits 2 as in every command); its ledger is used.
  const spec = options.config === undefined ? (options.ledger ?? io.env.BATON_LEDGER) : await resolveLedgerSpec(io, options);
  const forwards = parseForwardingOverride(io.env.BATON_MCP_FORWARDS);
  const ttl = Number(io.env.BATON_GIT_CACHE_TTL_MS);
  const gitCache = new GitCache(Number.isFinite(ttl) && ttl >= 0 && io.env.BATON_GIT_CACHE_TTL_MS ? { ttlMs: ttl } : {});
  const workspace = options.workspace ? path.resolve(io.cwd, options.workspace) : undefined;
  // A stdio server is one client's, started for its session, and its first call is usually
  // refresh_context. The render thread loads the tokenizer and secret rules, and git is read,
  // while this thread loads the ledger and the MCP SDK. git runs at a low CPU priority
  // (warm-up.ts says why): it takes mostly what the two threads leave idle.
  const renderWorker = options.http ? undefined : new RenderWorker();
  renderWorker?.warm();
  if (renderWorker && workspace) void gitCache.get(workspace, { background: true }).catch(() => undefined);
  // Files, not the modules' indexes: stdio start-up must not load the HTTP transport or the refresh renderers.
  const [{ openLedger }, { WorkspaceRegistry }] = await Promise.all([
    import('../../../ledger/index.js'),
    import('../../../mcp/workspace-state.js'),
  ]);
  // The ledger follows the workspace a client hands over, unless one was named explicitly.
  const registry = new WorkspaceRegistry((root) => openLedger({ spec, cwd: root }), gitCache);
  registry.renderWorker = renderWorker;
  const common = { registry, workspace, version: VERSION, forwards };
  try {
    if (!options.http) {
      const { serveStdio } = await import('../../../mcp/serve-stdio.js');
      await serveStdio(common);
      return EXIT_OK;
    }
    const port = parsePort(options.port ?? '8765', '--port');
    const { DEFAULT_HTTP_HOST, isLoopbackHost, serveHttp } = await import('../../../mcp/serve-http.js');
    const server = await serveHttp({
      ...common,
      port,
      host: options.host,
      token: options.token ?? io.env.BATON_MCP_TOKEN,
      allowedHosts: options.allowedHost,
      allowUnauthenticated: options.allowUnauthenticated,
      maxSessions: optionalInt(options.maxSessions, '--max-sessions'),
      maxInFlight: optionalInt(options.maxInFlight, '--max-in-flight'),
      sessionIdleMs: optionalInt(options.sessionIdleMs, '--session-idle-ms'),
    });
    const auth =
      (options.token ?? io.env.BATON_MCP_TOKEN)
        ? ' (bearer token required)'
        : isLoopbackHost(options.host ?? DEFAULT_HTTP_HOST)
          ? ' (no token: this machine only)'
          : ' (NO TOKEN: anyone who reaches this address can read and change the ledger)';
    // The handlers are in place before the ready line: a supervisor may stop the server on it.
    const stopped = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    io.stderr(`baton mcp: listening on ${server.url}${auth}\n`);
    await stopped;
    await server.close();
    return EXIT_OK;
  } finally {
    await registry.close();
  }
}

function optionalInt(value: string | undefined, flag: string): number | undefined {
  return value === undefined ? undefined : parsePositiveInt(value, flag);
}
