import path from 'node:path';
import { BatonError } from '../../../errors/index.js';
import { openLedger } from '../../../ledger/index.js';
import { DEFAULT_HTTP_HOST, isLoopbackHost, serveHttp, serveStdio, WorkspaceRegistry } from '../../../mcp/index.js';
import { GitCache } from '../../../refresh/index.js';
import { VERSION } from '../../program.js';
import { type CliIO, EXIT_OK } from '../../context.js';
import type { McpCliOptions } from './index.js';

export async function runMcp(io: CliIO, options: McpCliOptions): Promise<number> {
  const spec = options.ledger ?? io.env.BATON_LEDGER;
  // The ledger follows the workspace a client hands over, unless one was named explicitly.
  const ttl = Number(io.env.BATON_GIT_CACHE_TTL_MS);
  const gitCache = new GitCache(Number.isFinite(ttl) && ttl >= 0 && io.env.BATON_GIT_CACHE_TTL_MS ? { ttlMs: ttl } : {});
  const registry = new WorkspaceRegistry((root) => openLedger({ spec, cwd: root }), gitCache);
  const workspace = options.workspace ? path.resolve(io.cwd, options.workspace) : undefined;
  const common = { registry, workspace, version: VERSION };
  try {
    if (!options.http) {
      await serveStdio(common);
      return EXIT_OK;
    }
    const port = Number(options.port ?? '8765');
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      throw new BatonError('INPUT_INVALID', `--port must be 0-65535, got "${options.port}"`, { details: { field: '--port', value: options.port } });
    }
    const server = await serveHttp({
      ...common,
      port,
      host: options.host,
      token: options.token ?? io.env.BATON_MCP_TOKEN,
      allowedHosts: options.allowedHost,
      allowUnauthenticated: options.allowUnauthenticated,
    });
    const auth =
      options.token ?? io.env.BATON_MCP_TOKEN
        ? ' (bearer token required)'
        : isLoopbackHost(options.host ?? DEFAULT_HTTP_HOST)
          ? ' (no token: this machine only)'
          : ' (NO TOKEN: anyone who reaches this address can read and change the ledger)';
    io.stderr(`baton mcp: listening on ${server.url}${auth}\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.close();
    return EXIT_OK;
  } finally {
    await registry.close();
  }
}
