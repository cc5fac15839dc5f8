/**
 * `npm run bench -- NAME [ARGS...]` runs bench/NAME.ts, whose default export takes the remaining
 * arguments and writes bench/results/NAME.json. With no name it lists the benchmarks.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [name, ...args] = process.argv.slice(2);
const available = (await readdir(here)).filter((f) => f.endsWith('.ts') && f !== 'run.ts').map((f) => f.slice(0, -3));

if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}> [args...]`);
  process.exit(name ? 2 : 0);
}
const mod = (await import(path.join(here, `${name}.ts`))) as { default: (args: string[]) => Promise<void> };
await mod.default(args);
