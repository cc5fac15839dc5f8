#!/usr/bin/env node
const args = process.argv.slice(2);

// `baton --version` alone answers before the CLI loads (commander and the command table cost
// more than node's own start-up); anything else goes through the full program.
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else if (args[0] === 'hook' && !args.includes('--help') && !args.includes('-h')) {
  // `baton hook EVENT`, run by an agent CLI at every tool call: its own small entry, not the CLI.
  const { hookMain } = await loadEntry('hook-main.js', 'hooks/hook-main.js');
  await hookMain(args.slice(1)).catch(() => undefined);
} else if (args[0] === 'mcp' && !args.includes('--help') && !args.includes('-h')) {
  // `baton mcp`, started by an MCP client that waits for its answer: its own entry, without the
  // other commands.
  const { mcpMain } = await loadEntry('mcp-main.js', 'cli/mcp-main.js');
  exitWith(mcpMain(process.argv));
} else {
  const { main } = await loadEntry('index.js', 'cli/index.js');
  exitWith(main(process.argv));
}

/**
 * An entry of the bundled command (scripts/bundle-cli.mjs): one file per lazily loaded part instead
 * of hundreds of modules; dist/ holds the same code unbundled, for a build made with tsc alone.
 * Node >= 22.1 keeps compiled bytecode between runs (in the OS temp folder): a fresh process then
 * skips most of its module compilation. Node 20 has no such cache.
 */
async function loadEntry(bundled, unbundled) {
  const { enableCompileCache } = await import('node:module');
  enableCompileCache?.();
  return import(`../dist/cli-bundle/${bundled}`).catch((error) => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('cli-bundle')) throw error;
    return import(`../dist/${unbundled}`);
  });
}

/** Only bin/baton.js ends the process: the command's promise gives the exit code. */
function exitWith(running) {
  running.then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error instanceof Error ? error.stack : String(error));
      process.exitCode = 1;
    },
  );
}
