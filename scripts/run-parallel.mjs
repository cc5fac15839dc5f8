// Runs npm scripts at the same time and fails if any of them fails: `npm test`'s checks before the
// suite (the type check, the lint and the build read the sources and write nothing the others read).
// One after another they took about 2.5 minutes on an idle 2-core machine, most of it the
// type-aware lint alone; side by side they take about as long as the lint. Each script's output is
// held and printed in one piece when it ends, so the logs of two scripts never interleave.
//
// At most one script per CPU runs at a time (BATON_CHECKS_AT_ONCE overrides), the next starting as
// one ends, in the order given: the checks are CPU-bound and single-threaded, so four of them on two
// cores share each core and the longest (the type-aware lint, about half of all the CPU time) is
// stretched by the others; two at a time, the lint keeps a core and the rest take turns on the other.
//
// Usage: node scripts/run-parallel.mjs SCRIPT...
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs SCRIPT... (npm scripts of package.json)');
  process.exit(2);
}

/** Runs `npm run -s SCRIPT`, resolving with its exit code, its output and how long it took. */
function runScript(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', script], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (error) => chunks.push(Buffer.from(`could not start npm run ${script}: ${error.message}\n`)));
    child.on('close', (code, signal) =>
      resolve({ script, code: code ?? 1, signal, output: Buffer.concat(chunks).toString(), ms: Date.now() - started }),
    );
  });
}

/** Runs the script and prints its output and status in one piece. */
async function runAndReport(script) {
  const result = await runScript(script);
  const { code, signal, output, ms } = result;
  const status = code === 0 ? 'ok' : signal ? `killed by ${signal}` : `failed (exit ${code})`;
  process.stdout.write(
    `${output}${output && !output.endsWith('\n') ? '\n' : ''}== npm run ${script}: ${status} in ${(ms / 1000).toFixed(1)} s\n`,
  );
  return result;
}

const setAtOnce = Number(process.env.BATON_CHECKS_AT_ONCE);
const atOnce = Number.isInteger(setAtOnce) && setAtOnce > 0 ? setAtOnce : availableParallelism();
const queue = [...scripts];
const results = [];
/** One lane: takes the next script from the queue until none is left. */
async function lane() {
  for (let script = queue.shift(); script !== undefined; script = queue.shift()) results.push(await runAndReport(script));
}
await Promise.all(Array.from({ length: Math.min(atOnce, scripts.length) }, lane));
const failed = results.filter((r) => r.code !== 0).map((r) => r.script);
if (failed.length > 0) {
  console.error(`failed: ${failed.map((s) => `npm run ${s}`).join(', ')} (output above)`);
  process.exit(1);
}
