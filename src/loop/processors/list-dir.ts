import type { ProcessedOutput, ProcessorInput } from './types.js';

const MAX_NAMES = 25;

/** list_dir: how many entries and directories, and the first names. Pure. */
export function processListDir(input: ProcessorInput): ProcessedOutput {
  const names = input.output
    .split(/[\n\t]+|\s{2,}/)
    .map((n) => n.replace(/\r$/, '').trim())
    .filter((n) => n.length > 0 && !n.startsWith('(') && !/^total \d+$/.test(n) && !n.endsWith('$'));
  const dirs = names.filter((n) => n.endsWith('/')).length;
  const shown = names.slice(0, MAX_NAMES).join(' ');
  const more = names.length > MAX_NAMES ? ` (+${names.length - MAX_NAMES} more)` : '';
  return { summary: `${names.length} entries, ${dirs} directories: ${shown}${more}`, errors: [] };
}
