import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';

/** @default 1 MiB: past this the log is moved to hooks.log.1 (one old copy kept). */
export const MAX_HOOK_LOG_BYTES = 1024 * 1024;

/**
 * Appends one line to `.baton/hooks/hooks.log`: a hook that answered nothing says why here, never
 * to the client (whose model would read it). Never throws: a log that cannot be written is dropped.
 */
export async function logHookProblem(
  file: string,
  fields: { event: string; client: string; session?: string; problem: string },
  now: number,
): Promise<void> {
  try {
    // Loaded here: the secret patterns are compiled only when there is something to log.
    const { maskSecretsSync } = await import('../redact/index.js');
    mkdirSync(path.dirname(file), { recursive: true });
    const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    if (size > MAX_HOOK_LOG_BYTES) renameSync(file, `${file}.1`);
    const line = { at: new Date(now).toISOString(), ...fields, problem: maskSecretsSync(fields.problem).text };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  } catch {
    // Nowhere left to say it; the client must not hear of it.
  }
}
