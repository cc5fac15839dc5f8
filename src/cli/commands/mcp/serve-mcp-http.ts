import { type BatonMcpServerOptions, DEFAULT_HTTP_HOST, isLoopbackHost, serveHttp } from '../../../mcp/index.js';
import { EXIT_OK, parsePort, parsePositiveInt, untilSignal, type CliIO } from '../../context.js';
import type { McpCliOptions } from './options.js';

/** `baton mcp --http`: serves Streamable HTTP until SIGINT or SIGTERM. */
export async function serveMcpHttp(io: CliIO, options: McpCliOptions, common: BatonMcpServerOptions): Promise<number> {
  const port = parsePort(options.port ?? '8765', '--port');
  const token = options.token ?? io.env.BATON_MCP_TOKEN;
  const server = await serveHttp({
    ...common,
    port,
    host: options.host,
    token,
    allowedHosts: options.allowedHost,
    allowUnauthenticated: options.allowUnauthenticated,
    maxSessions: optionalInt(options.maxSessions, '--max-sessions'),
    maxInFlight: optionalInt(options.maxInFlight, '--max-in-flight'),
    sessionIdleMs: optionalInt(options.sessionIdleMs, '--session-idle-ms'),
  });
  const auth = token
    ? ' (bearer token required)'
    : isLoopbackHost(options.host ?? DEFAULT_HTTP_HOST)
      ? ' (no token: this machine only)'
      : ' (NO TOKEN: anyone who reaches this address can read and change the ledger)';
  // The handlers are in place before the ready line: a supervisor may stop the server on it.
  const stopped = untilSignal();
  io.stderr(`baton mcp: listening on ${server.url}${auth}\n`);
  await stopped;
  await server.close();
  return EXIT_OK;
}

function optionalInt(value: string | undefined, flag: string): number | undefined {
  return value === undefined ? undefined : parsePositiveInt(value, flag);
}
