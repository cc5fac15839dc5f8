import type { Task } from '../ledger/index.js';
import { buildHelperContext, HELPER_MODE, isPreContextEnabled } from '../precontext/index.js';
import { buildHelperPrompt } from '../prompt/index.js';
import { maskSecretsSync } from '../redact/index.js';
import { parseHelperCommands } from './parse-helper-commands.js';
import { announceContext, type ProviderChainOptions, runProviderChain } from './provider-chain.js';
import { checkError, type CriterionFailure } from './validate-attempt.js';

/** Dispatches read back to build the helper context. */
const HELPER_HISTORY = 30;

export interface HelperAgentInput {
  task: Task;
  attempt: number;
  /** Indexes of the criteria without a check command. */
  unchecked: readonly number[];
  agentResponse: string;
  /** Files the attempt touched (measured). */
  codeFiles: readonly string[];
  checkTimeoutMs: number;
}

export interface HelperAgentResult {
  failures: CriterionFailure[];
  /** Checks the helper wrote, to store on the task's criteria. */
  written: { index: number; command: string }[];
}

/**
 * Seed 000's helper agent: after a failed validation, the criteria without a check go to a
 * verifier agent whose prompt starts with the HELPER AGENT CONTEXT; it answers JSON commands,
 * which Baton runs in the workspace. A criterion the helper wrote no command for stays unverified
 * (reported as a failure, since validation has already failed).
 */
export async function runHelperAgent(input: HelperAgentInput, chain: ProviderChainOptions): Promise<HelperAgentResult> {
  const { task, attempt } = input;
  const descriptions = input.unchecked.map((i) => task.acceptanceCriteria[i]?.description ?? '');
  let context = '';
  if (isPreContextEnabled(chain.preContext, 'helper', task.options)) {
    const history = await chain.ledger.lastDispatches(task.id, HELPER_HISTORY);
    context = buildHelperContext({ attempt, dispatches: history, limits: chain.preContext.limits, logger: chain.logger });
  }
  const base = buildHelperPrompt({
    agentResponse: input.agentResponse,
    failedCriteria: descriptions,
    workingDirectory: chain.cwd,
    codeFiles: input.codeFiles,
  });
  if (chain.logger.isLevelEnabled('info')) {
    chain.logger.info(
      { event: 'prompt.original', taskId: task.id, attempt, kind: 'helper', prompt: maskSecretsSync(base).text },
      'helper prompt',
    );
  }
  if (context) announceContext({ taskId: task.id, attempt }, context, 'helper', chain, 'helper context injected');
  const run = await runProviderChain(
    {
      taskId: task.id,
      attempt,
      prompt: context + base,
      injectedContext: context,
      contextType: context ? 'helper' : undefined,
      mode: HELPER_MODE,
      taskOptions: task.options,
    },
    chain,
  );
  if (!run.ok) {
    return {
      written: [],
      failures: input.unchecked.map((index, i) => ({
        index,
        error: `${descriptions[i]} - not verified: helper agent unavailable (${run.failure})`,
      })),
    };
  }
  const answer = run.result.response ?? run.result.output;
  const commands = parseHelperCommands(answer, descriptions);
  const failures: CriterionFailure[] = [];
  const written: HelperAgentResult['written'] = [];
  const checks: { criterion: string; command: string; ok: boolean }[] = [];
  for (const [i, index] of input.unchecked.entries()) {
    const description = descriptions[i] ?? '';
    const command = commands.find((c) => c.index === i)?.command;
    if (!command) {
      failures.push({ index, error: `${description} - not verified: helper gave no command` });
      continue;
    }
    written.push({ index, command });
    const result = await chain.workspace.runCheck(command, { timeoutMs: input.checkTimeoutMs });
    checks.push({ criterion: description, command, ok: result.ok });
    if (!result.ok) failures.push({ index, error: checkError(description, command, result, 'helper check failed') });
  }
  chain.onEvent({ type: 'helper-checks', taskId: task.id, attempt, checks });
  return { written, failures };
}
