import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { classifyOutcome } from './classify/classify-outcome.js';
import { parseCommandOutput } from './command-outcome-line.js';
import { combineOutput } from './process/combine-output.js';
import { identifyProcess } from './process/process-identity.js';
import { runProcess } from './process/run-process.js';
import type { CommandProviderConfig, Provider, ProviderResult, ProviderRunRequest } from './types.js';
import { checkProcessOptions, commandConfigSchema, checkProviderConfig } from './provider-config-schema.js';
import { definedFields } from '../util/index.js';

export interface ProcessProviderOptions {
  /** Bytes kept per stream (head and tail). @default DEFAULT_OUTPUT_CAP_BYTES */
  outputCapBytes?: number;
  /** SIGTERM-to-SIGKILL grace when stopping the group. @default DEFAULT_KILL_GRACE_MS */
  killGraceMs?: number;
  /** Clock for relative reset times. @default Date.now */
  now?: () => number;
}

/**
 * Any executable as an agent. The prompt arrives on stdin and in the file named by
 * BATON_PROMPT_FILE; BATON_TASK_ID, BATON_ATTEMPT and BATON_MODEL are set when known; BATON_SUPERVISED=1 always. The exit code
 * and an optional last stdout line `{"outcome":"rate_limited","resetAt":"…Z"}` give the outcome;
 * without that line, exit 0 is ok and anything else is classified by the known phrases.
 */
export function createCommandProvider(name: string, config: CommandProviderConfig, options: ProcessProviderOptions = {}): Provider {
  checkProviderConfig('createCommandProvider', name, config, commandConfigSchema);
  checkProcessOptions('createCommandProvider', options);
  const now = options.now ?? Date.now;
  return {
    name,
    type: 'command',
    async run(request: ProviderRunRequest): Promise<ProviderResult> {
      const dir = await mkdtemp(path.join(tmpdir(), 'baton-prompt-'));
      const promptFile = path.join(dir, 'prompt.md');
      try {
        await writeFile(promptFile, request.prompt, 'utf8');
        const model = request.model ?? config.model;
        const env: NodeJS.ProcessEnv = { ...config.env, ...request.env, BATON_PROMPT_FILE: promptFile, BATON_SUPERVISED: '1' };
        if (request.taskId !== undefined) env.BATON_TASK_ID = request.taskId;
        if (request.attempt !== undefined) env.BATON_ATTEMPT = String(request.attempt);
        if (model !== undefined) env.BATON_MODEL = model;
        const run = await runProcess(config.command, {
          cwd: request.cwd,
          env,
          input: request.prompt,
          timeoutMs: Math.min(request.timeoutMs, config.timeoutMs ?? Number.POSITIVE_INFINITY),
          ...definedFields({ signal: request.signal, outputCapBytes: options.outputCapBytes, killGraceMs: options.killGraceMs }),
          ...(request.onProcessStart ? { onSpawn: (pid: number) => request.onProcessStart?.(identifyProcess(pid)) } : {}),
        });
        const parsed = parseCommandOutput(run.stdout);
        const outcome = classifyOutcome({
          provider: name,
          stdout: run.stdout,
          stderr: run.stderr,
          parsed,
          timedOut: run.timedOut,
          aborted: run.aborted,
          binary: config.command[0]!,
          programField: 'command',
          now: now(),
          prompt: request.prompt,
          ...definedFields({ exitCode: run.exitCode, signal: run.signal, spawnError: run.spawnError }),
        });
        const result: ProviderResult = { outcome, ...combineOutput(run), durationMs: run.durationMs };
        if (run.exitCode !== undefined) result.exitCode = run.exitCode;
        if (run.signal !== undefined) result.signal = run.signal;
        const ranModel = parsed.model ?? model;
        if (ranModel !== undefined) result.model = ranModel;
        if (parsed.usage !== undefined) result.usage = parsed.usage;
        if (parsed.response !== undefined && parsed.response !== '') result.response = parsed.response;
        return result;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
