/** One path `git status --porcelain=v2 -z` lists: its status letters ('??' untracked), and a rename's original path. */
export interface PorcelainEntry {
  xy: string;
  path: string;
  from?: string;
}

export interface Porcelain {
  /** HEAD's commit (`--branch`); absent on an unborn branch. */
  head?: string;
  /** The branch's name (`--branch`); absent when detached. */
  branch?: string;
  entries: PorcelainEntry[];
}

/** Parses `git status --porcelain=v2 -z`, with its `--branch` headers when asked for. */
export function parsePorcelain(output: string): Porcelain {
  const parts = output.split('\0');
  const result: Porcelain = { entries: [] };
  for (let i = 0; i < parts.length; i += 1) {
    const entry = parts[i] ?? '';
    const fields = entry.split(' ');
    if (entry.startsWith('# branch.oid ')) {
      if (fields[2] !== '(initial)') result.head = fields[2];
    } else if (entry.startsWith('# branch.head ')) {
      const name = entry.slice('# branch.head '.length);
      if (name !== '(detached)') result.branch = name;
    } else if (entry.startsWith('1 ')) result.entries.push({ xy: fields[1] ?? '..', path: fields.slice(8).join(' ') });
    else if (entry.startsWith('u ')) result.entries.push({ xy: fields[1] ?? '..', path: fields.slice(10).join(' ') });
    // A rename's original path follows as its own entry.
    else if (entry.startsWith('2 '))
      result.entries.push({ xy: fields[1] ?? '..', path: fields.slice(9).join(' '), from: parts[++i] ?? '' });
    else if (entry.startsWith('? ')) result.entries.push({ xy: '??', path: entry.slice(2) });
  }
  return result;
}
