import * as z from 'zod';

const commandsSchema = z.object({
  commands: z.array(
    z.object({
      criterion: z.union([z.number().int().min(1), z.string().min(1)]),
      command: z.string().min(1),
      description: z.string().optional(),
    }),
  ),
});

export interface HelperCommand {
  /** Index into the criteria the helper was asked about (0-based). */
  index: number;
  command: string;
}

/**
 * Reads the helper agent's JSON verification commands from its answer: the last line or fenced
 * block holding `{"commands":[...]}`. `criterion` is the 1-based number from the prompt or the
 * criterion's text. Unknown criteria and unparsable answers yield no commands (never a throw).
 */
export function parseHelperCommands(answer: string, criteria: readonly string[]): HelperCommand[] {
  for (const candidate of jsonCandidates(answer)) {
    let json: unknown;
    try {
      json = JSON.parse(candidate);
    } catch {
      continue;
    }
    const parsed = commandsSchema.safeParse(json);
    if (!parsed.success) continue;
    const out: HelperCommand[] = [];
    for (const c of parsed.data.commands) {
      const index = typeof c.criterion === 'number' ? c.criterion - 1 : criteria.indexOf(c.criterion);
      if (index >= 0 && index < criteria.length && !out.some((o) => o.index === index)) out.push({ index, command: c.command });
    }
    return out;
  }
  return [];
}

/** JSON-looking pieces, last first: whole lines starting with `{`, then the outermost braces. */
function jsonCandidates(answer: string): string[] {
  const lines = answer
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('{') && l.endsWith('}'))
    .reverse();
  const first = answer.indexOf('{');
  const last = answer.lastIndexOf('}');
  return first >= 0 && last > first ? [...lines, answer.slice(first, last + 1)] : lines;
}
