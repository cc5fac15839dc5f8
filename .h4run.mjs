import { main } from '/work/main/src/cli/index.ts';
process.exitCode = await main(['node', 'baton', ...process.argv.slice(2)]);
