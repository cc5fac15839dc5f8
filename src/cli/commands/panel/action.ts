import { BatonError } from '../../../errors/index.js';
import { type Attribution, type PanelAnswer, type PanelResult, runPanel } from '../../../panel/index.js';
import { type CliIO, type CommonOptions, EXIT_FAILURE, EXIT_OK, parseChoice, printResult } from '../../context.js';
import { openPanelCommand } from './load-panel-providers.js';

export interface PanelCommandOptions extends CommonOptions {
  attribution?: string;
  providersConfig?: string;
}

/**
 * Runs the panel once. On a terminal each answer streams as it is written; otherwise each answer
 * prints when it completes; with --json one document prints at the end. Exit 1 when every agent
 * failed, 2 for bad input (missing --config, invalid panel file, empty question).
 */
export async function runPanelCommand(io: CliIO, words: string[], options: PanelCommandOptions): Promise<number> {
  const question = words.join(' ');
  const attribution = options.attribution === undefined ? undefined : parseChoice(options.attribution, ATTRIBUTIONS, '--attribution');
  if (options.config && !question.trim())
    throw new BatonError('INPUT_INVALID', 'The question is empty: ask the panel something', { details: { field: 'question' } });
  const { config, providers, ledger, summaryCache } = await openPanelCommand(io, 'panel', options);
  const streaming = io.isTTY && !options.json;
  let result: PanelResult;
  try {
    result = await runPanel(config, question, {
      ledger,
      attribution,
      summaryCache,
      providers,
      cwd: io.cwd,
      ...(options.json
        ? {}
        : streaming
          ? {
              onAgentStart: (event) => io.stdout(`${header(event.agent, event.model, event.contextMode, event.contextFrom)}\n`),
              onToken: (event) => io.stdout(event.text),
              onAgentEnd: (answer) => io.stdout(`\n${answer.ok ? '' : failureLine(answer)}\n`),
            }
          : { onAgentEnd: (answer) => io.stdout(`${renderAnswer(answer)}\n`) }),
    });
  } finally {
    await ledger.close();
  }
  const failed = result.answers.filter((answer) => !answer.ok).length;
  printResult(io, options, result, () => `session ${result.session}: ${result.answers.length - failed} answered, ${failed} failed`);
  return failed === result.answers.length ? EXIT_FAILURE : EXIT_OK;
}

const ATTRIBUTIONS: readonly Attribution[] = ['assistant', 'user'];

function header(agent: string, model: string, mode: string, from: readonly string[]): string {
  const context = mode === 'none' ? '' : `, context: ${mode} from ${from.join(', ')}`;
  return `== ${agent} (${model}${context}) ==`;
}

function failureLine(answer: PanelAnswer): string {
  return `[${answer.agent} failed: ${answer.outcome}: ${answer.error ?? 'no answer'}; not passed on]\n`;
}

function renderAnswer(answer: PanelAnswer): string {
  const head = header(answer.agent, answer.model, answer.contextMode, answer.contextFrom);
  return answer.ok ? `${head}\n${answer.text}\n` : `${head}\n${failureLine(answer)}`;
}
