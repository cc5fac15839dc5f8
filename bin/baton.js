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
  const { enableCompileCache } = await import('node:module');
  enableCompileCache?.();
  const { hookMain } = await import('../dist/cli-bundle/hook-main.js').catch((error) => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('cli-bundle')) throw error;
    return import('../dist/hooks/hook-main.js');
  });
  await hookMain(args.slice(1)).catch(() => undefined);
} else {
  // Node >= 22.1 keeps compiled bytecode between runs (in the OS temp folder): a fresh `baton mcp`
  // or `baton status` then skips most of its module compilation. Node 20 has no such cache.
  const { enableCompileCache } = await import('node:module');
  enableCompileCache?.();
  if (args[0] === 'mcp' && !args.some((arg) => arg === '--http' || arg === '--help' || arg === '-h')) await prestartRenderWorker();
  // The bundled command (scripts/bundle-cli.mjs): one file per lazily loaded part instead of
  // hundreds of modules. dist/cli is the same code unbundled, for a build made with tsc alone.
  const { main } = await import('../dist/cli-bundle/index.js').catch((error) => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('cli-bundle')) throw error;
    return import('../dist/cli/index.js');
  });
  main(process.argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error instanceof Error ? error.stack : String(error));
      process.exitCode = 1;
    },
  );
}

/**
 * `baton mcp` over stdio answers refresh_context first, and its render thread spends ~250 ms
 * loading the tokenizer vocabulary and secret rules. Started here, before the command loads, those
 * loads run beside the whole start-up; src/refresh/render-worker.ts takes the thread over.
 */
async function prestartRenderWorker() {
  const entry = new URL('../dist/cli-bundle/render-worker-main.js', import.meta.url);
  const [{ existsSync }, { Worker }, { fileURLToPath }] = await Promise.all([
    import('node:fs'),
    import('node:worker_threads'),
    import('node:url'),
  ]);
  if (!existsSync(fileURLToPath(entry))) return;
  const worker = new Worker(entry);
  worker.unref();
  const early = { url: entry.href, worker, error: undefined };
  worker.once('error', (error) => {
    early.error ??= error;
  });
  globalThis[Symbol.for('baton.prestartedRenderWorker')] = early;
}
