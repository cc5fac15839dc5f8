import { findBatonWorkspace, hookLogFile } from './hook-paths.js';
import { logHookProblem } from './hook-log.js';
import { parseHookInput } from './parse-hook-input.js';
import type { AgentClient, HookAnswer, HookEvent, HookInput } from './types.js';

export interface RunHookOptions {
  client: AgentClient;
  event: HookEvent;
  /** The client's JSON, as read from stdin. */
  stdin: string;
  /** Where the hook process runs (used when the JSON names no cwd). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** @default Date.now */
  now?: () => number;
  /** Give up (print nothing) after this long. @default DEFAULT_DEADLINES_MS[event] */
  deadlineMs?: number;
}

/**
 * How long each hook may take before it gives up and prints nothing, inside every client's
 * timeout (the settings Baton writes allow more): Claude cuts SessionEnd at 1.5 s, Codex ends its
 * run about 1 s into SessionEnd, so that one is short.
 */
export const DEFAULT_DEADLINES_MS: Readonly<Record<HookEvent, number>> = {
  'session-start': 6_000,
  prompt: 2_000,
  'post-tool': 2_000,
  'pre-compact': 6_000,
  'before-agent': 6_000,
  stop: 6_000,
  'session-end': 1_200,
};

/**
 * Runs one `baton hook` event and returns what to print. Never throws and never answers with an
 * error: a bad input, a missing or locked ledger, a failed git, or a deadline passed all give
 * an empty answer (exit 0, nothing on stdout), with the reason appended to
 * `.baton/hooks/hooks.log`. A folder without `.baton/` is not Baton's: nothing is done there.
 */
export async function runHook(options: RunHookOptions): Promise<HookAnswer> {
  const now = (options.now ?? Date.now)();
  let input: HookInput;
  try {
    input = parseHookInput(options.client, options.event, options.stdin, options.cwd);
  } catch (error) {
    const workspace = findBatonWorkspace(options.cwd);
    if (workspace)
      await logHookProblem(hookLogFile(workspace), { event: options.event, client: options.client, problem: messageOf(error) }, now);
    return { stdout: '' };
  }
  const workspace = findBatonWorkspace(input.cwd);
  if (!workspace) return { stdout: '' };
  const deadline = options.deadlineMs ?? DEFAULT_DEADLINES_MS[options.event];
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`gave up after ${deadline} ms`)), deadline);
    });
    return { stdout: await Promise.race([dispatch(input, workspace, now, options.env), timeout]) };
  } catch (error) {
    await logHookProblem(
      hookLogFile(workspace),
      { event: options.event, client: options.client, session: input.sessionId, problem: messageOf(error) },
      now,
    );
    return { stdout: '' };
  } finally {
    clearTimeout(timer);
  }
}

type HookHandler = (input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv) => Promise<string>;

/**
 * Each event loads its own handler: the per-tool-call and per-prompt hooks only the journal's few
 * modules; Gemini's BeforeAgent (once per prompt) the ledger only when a compression is due; the end
 * of a turn and the end of a session neither the context renderer nor the tokenizer that
 * SessionStart uses.
 */
const HANDLERS: Readonly<Record<HookEvent, () => Promise<HookHandler>>> = {
  prompt: async () => (await import('./handle-note.js')).handleNote,
  'post-tool': async () => (await import('./handle-note.js')).handleNote,
  'before-agent': async () => (await import('./handle-before-agent.js')).handleBeforeAgent,
  stop: async () => (await import('./handle-stop.js')).handleStop,
  'session-end': async () => (await import('./handle-session-end.js')).handleSessionEnd,
  'session-start': async () => (await import('./handle-session.js')).handleSessionStart,
  'pre-compact': async () => (await import('./handle-session.js')).handlePreCompact,
};

async function dispatch(input: HookInput, workspace: string, now: number, env: NodeJS.ProcessEnv): Promise<string> {
  // Briefed and recorded by `baton run` itself: only linked to its task and try.
  const handle = env.BATON_SUPERVISED ? (await import('./supervised-session.js')).linkSupervisedSession : await HANDLERS[input.event]();
  return handle(input, workspace, now, env);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
