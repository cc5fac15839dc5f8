import { BatonError, isBatonError } from '../../../errors/index.js';
import { maskSecretsSync } from '../../../redact/index.js';
import { REFRESH_FORMATS, refreshContext } from '../../../refresh/index.js';
import { type CliIO, EXIT_OK, parseChoice, parsePositiveInt, printResult, withCliLedger, type CommonOptions } from '../../context.js';
import { importBeforeReading, waitForHookFolds } from '../sessions/workspace-sessions.js';

export interface RefreshCliOptions extends CommonOptions {
  format?: string;
  since?: string;
  save?: boolean;
  session?: string;
  git?: boolean;
  prompt?: boolean;
  dispatchLimit?: string;
  commitLimit?: string;
}

export async function runRefresh(io: CliIO, taskId: string | undefined, options: RefreshCliOptions): Promise<number> {
  // Text unless --json, as --help says: a person reads the markdown narrative, a program the JSON.
  const format = parseChoice(options.format ?? (options.json ? 'standard' : 'narrative'), REFRESH_FORMATS, '--format');
  await waitForHookFolds(io);
  return withCliLedger(io, options, async (ledger) => {
    await importBeforeReading(io, ledger);
    const result = await refreshContext({
      workspace: io.cwd,
      ledger,
      taskId,
      format,
      since: options.since,
      saveSnapshot: options.save,
      sessionId: options.session,
      includeGit: options.git,
      generateContinuationPrompt: options.prompt,
      dispatchLimit: options.dispatchLimit ? parsePositiveInt(options.dispatchLimit, '--dispatch-limit') : undefined,
      commitLimit: options.commitLimit ? parsePositiveInt(options.commitLimit, '--commit-limit') : undefined,
      env: io.env,
    });
    printResult(
      io,
      options,
      { ...result.context, continuation_prompt: result.continuation_prompt, metadata: result.metadata },
      () => result.text,
    );
    for (const warning of result.metadata.warnings) if (!options.json) io.stderr(`baton: warning: ${warning}\n`);
    return EXIT_OK;
  }).catch((error: unknown) => {
    // Error text leaves the process too: mask it like everything else refresh emits.
    if (isBatonError(error)) {
      throw new BatonError(error.code, maskSecretsSync(error.message).text, { cause: error, details: error.details });
    }
    throw error;
  });
}
