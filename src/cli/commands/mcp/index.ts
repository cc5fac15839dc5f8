import { withCommonOptions, lazyAction, type RegisterCommand, collect } from '../../context.js';

/** `baton mcp`: the Baton MCP server over stdio, or Streamable HTTP with --http. */
export const registerMcp: RegisterCommand = (program, io, state) => {
  withCommonOptions(program.command('mcp'))
    .description('serve the Baton MCP tools (refresh_context, task, dispatch, debt, …) over stdio or --http')
    .option('--http', 'serve Streamable HTTP instead of stdio')
    .option('--port <n>', 'HTTP port (0 picks a free one)', '8765')
    .option('--host <host>', 'HTTP bind address', '127.0.0.1')
    .option('--token <token>', 'bearer token HTTP clients must send (env BATON_MCP_TOKEN)')
    .option('--allow-unauthenticated', 'serve a non-loopback --host without a token (a warning is printed)')
    .option('--allowed-host <host:port>', 'extra Host header accepted over HTTP, repeatable', collect, [])
    .option('--max-sessions <n>', 'HTTP sessions open at once; beyond it 503 with Retry-After (default 256)')
    .option('--max-in-flight <n>', 'HTTP requests handled at once; beyond it 503 with Retry-After (default 256)')
    .option('--session-idle-ms <ms>', 'close HTTP sessions idle this long (default 600000)')
    .option('--workspace <dir>', 'activate this workspace at start (clients may still call workspace_handshake)')
    .action(lazyAction(io, state, async () => (await import('./action.js')).runMcp));
};
