#!/usr/bin/env node
const args = process.argv.slice(2);

// `baton --version` alone answers before the CLI loads (commander and the command table cost
// more than node's own start-up); anything else goes through the full program.
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  const { main } = await import('../dist/cli/index.js');
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
