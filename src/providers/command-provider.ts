import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { classifyOutcome } from './classify/classify-outcome.js';
import { parseCommandOutput } from './command-outcome-line.js';
import { agentEnv, agentResult, runAgentProcess } from './process/agent-run.js';
import type { CommandProviderConfig, ProcessProviderOptions, Provider, ProviderResult, ProviderRunRequest } from './types.js';
import { checkProcessOptions, commandConfigSchema, checkProviderConfig } from './provider-config-schema.js';
import { definedFields } from '../util/index.js';

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
        const env = agentEnv(
          { ...config.env, ...request.env, BATON_PROMPT_FILE: promptFile, ...definedFields({ BATON_MODEL: model }) },
          request,
        );
        const run = await runAgentProcess(config.command, request, config, options, { env, input: request.prompt });
        const parsed = parseCommandOutput(run.stdout);
        const outcome = classifyOutcome({
          ...run,
          provider: name,
          parsed,
          binary: config.command[0]!,
          programField: 'command',
          now: now(),
          prompt: request.prompt,
        });
        return agentResult(run, outcome, parsed, parsed.model ?? model);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
