/**
 * Shared plumbing of the fault-test workers: argument parsing, and the optional start barrier
 * (`--barrier`: print "ready", then wait for "go" on stdin) that lets a test start several
 * processes on exactly the same signal so their writes really interleave.
 */
import { createInterface } from 'node:readline';

export interface WorkerArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

export function parseWorkerArgs(argv: string[] = process.argv.slice(2)): WorkerArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      flags.set(arg.slice(2), next);
      i += 1;
    } else {
      flags.set(arg.slice(2), true);
    }
  }
  return { positional, flags };
}

export function requirePositive(value: string | undefined, name: string, usage: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) fail(`${name} must be a positive integer, got ${JSON.stringify(value)}\n${usage}`);
  return n;
}

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** With --barrier: announce readiness and wait for "go" on stdin. */
export async function startBarrier(args: WorkerArgs): Promise<void> {
  if (!args.flags.has('barrier')) return;
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.trim() === 'go') break;
  }
  lines.close();
}
