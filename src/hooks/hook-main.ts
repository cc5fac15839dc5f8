import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
// The files, not the module's index: the index also loads the fold and the context renderer,
// which the per-tool-call hook must not pay for (run-hook.ts loads them when an event needs them).
import { isAgentClient } from './client-specs.js';
import { finishJob, handOffHook, readJob } from './hook-jobs.js';
import { findBatonWorkspace, HOOKS_DIR, hookLogFile } from './hook-paths.js';
import { JsonStringCutter } from './json-string-cutter.js';
import { runHook } from './run-hook.js';
import { HOOK_EVENTS, type HookEvent } from './types.js';

/** @default 100: how long the process may stay after its answer (closing the ledger cleanly), at most. */
const EXIT_AFTER_ANSWER_MS = 100;

/** @default 30 s: how long a handed-off Stop or SessionEnd (a detached child, no client waiting) may take. */
const JOB_DEADLINE_MS = 30_000;

/** @default 3000: how long to wait for the client to finish writing stdin. */
const STDIN_WAIT_MS = 3_000;

const USAGE = `usage: baton hook <${HOOK_EVENTS.join('|')}> --client <claude|gemini|codex>
Run by an agent CLI's lifecycle hooks (see \`baton hooks install\`): reads the client's JSON on stdin.`;

/**
 * \`baton hook EVENT --client CLIENT\`, as bin/baton.js runs it before the rest of the CLI loads
 * (commander and the command table cost more than a tool call may). Always exits 0 for a client:
 * an exit 2 would block a prompt or replace a tool's output, and anything on stderr can reach the
 * user. Only a person at a terminal (stdin is a TTY) gets the usage and exit 2 for bad arguments.
 */
export async function hookMain(argv: readonly string[]): Promise<void> {
  const [event, ...rest] = argv;
  const clientIndex = rest.indexOf('--client');
  const client = clientIndex >= 0 ? rest[clientIndex + 1] : undefined;
  const interactive = Boolean(process.stdin.isTTY);
  if (!event || !(HOOK_EVENTS as readonly string[]).includes(event) || !isAgentClient(client)) {
    const problem = !event
      ? 'no event given'
      : !isAgentClient(client)
        ? `--client must be claude, gemini or codex (got ${client ?? 'none'})`
        : `unknown event "${event}" (expected one of ${HOOK_EVENTS.join(', ')}): check the command in the client's settings`;
    if (interactive) {
      process.stderr.write(`baton hook: ${problem}\n${USAGE}\n`);
      process.exitCode = 2;
    } else await logBadCall(event ?? '', client ?? '', problem);
    return;
  }
  const jobIndex = rest.indexOf('--job');
  if (jobIndex >= 0) return runJob(rest[jobIndex + 1] ?? '');
  const stdin = interactive ? '' : await readStdin();
  const job = { client, event: event as HookEvent, stdin, cwd: process.cwd(), at: Date.now() };
  // The end of a turn or of a session: folded by a detached child, the client goes on at once.
  if (handOffHook(job, process.env)) return;
  const answer = await runHook({ ...job, env: process.env });
  if (answer.stdout) await new Promise<void>((resolve) => process.stdout.write(answer.stdout, () => resolve()));
  // The answer is out (at the deadline at the latest) and the client waits for the exit: whatever
  // still holds the process (a Redis client retrying an unresponsive server), it ends now.
  setTimeout(() => process.exit(), EXIT_AFTER_ANSWER_MS).unref();
}

/**
 * The detached child of a handed-off Stop or SessionEnd (`--job FILE`): runs the hook as the
 * client's process would have, at the event's time and with a longer deadline, then removes the
 * job file (a session start waits for it; a crash leaves it, and the next session start reruns it).
 */
async function runJob(file: string): Promise<void> {
  // Only a file a hook wrote, in a workspace's .baton/hooks/jobs/: the job's file is removed after it runs.
  if (!path.dirname(path.resolve(file)).endsWith(path.join(HOOKS_DIR, 'jobs'))) return;
  const job = readJob(file);
  if (!job) return;
  try {
    await runHook({ ...job, env: process.env, now: () => job.at, deadlineMs: JOB_DEADLINE_MS });
  } finally {
    finishJob(file);
  }
  setTimeout(() => process.exit(), EXIT_AFTER_ANSWER_MS).unref();
}

/** A client ran `baton hook` with an event or client Baton does not know (a typo in the settings): said in the log `hooks status` shows. */
async function logBadCall(event: string, client: string, problem: string): Promise<void> {
  const workspace = findBatonWorkspace(process.cwd());
  if (!workspace) return;
  const { logHookProblem } = await import('./hook-log.js');
  await logHookProblem(hookLogFile(workspace), { event, client, problem }, Date.now());
}

/**
 * The client's JSON, its long strings cut as it streams in (JsonStringCutter): an input of any
 * size is read without holding it, and its small fields still parse.
 */
function readStdin(): Promise<string> {
  return new Promise((resolve) => {
    const decoder = new StringDecoder('utf8');
    const cutter = new JsonStringCutter();
    const finish = () => {
      clearTimeout(timer);
      process.stdin.pause();
      cutter.push(decoder.end());
      resolve(cutter.text());
    };
    const timer = setTimeout(finish, STDIN_WAIT_MS);
    process.stdin.on('data', (chunk: Buffer) => cutter.push(decoder.write(chunk)));
    process.stdin.on('end', finish);
    process.stdin.on('error', finish);
  });
}
