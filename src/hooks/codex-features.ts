/**
 * Codex reads hooks only with `[features] hooks = true` in its config.toml (0.171; newer
 * releases enable them by default). This turns the flag on in the file's text, leaving every
 * other line, comment and table as it was: the `hooks` key of an existing `[features]` table is
 * set to true, or added under its header, or a `[features]` table is appended. A dotted top-level
 * `features.hooks = …` is set in place. Pure.
 */
export function withCodexHooksFeature(toml: string): string {
  const lines = toml === '' ? [] : toml.replace(/\r\n/g, '\n').split('\n');
  const dotted = lines.findIndex((line) => /^\s*features\.hooks\s*=/.test(line));
  const header = lines.findIndex((line) => /^\s*\[\s*features\s*\]\s*(#.*)?$/.test(line));
  if (header < 0 && dotted >= 0 && firstTable(lines) > dotted) {
    lines[dotted] = 'features.hooks = true';
    return lines.join('\n');
  }
  if (header < 0) {
    const body = lines.join('\n').replace(/\n*$/, '');
    return `${body}${body ? '\n\n' : ''}[features]\nhooks = true\n`;
  }
  for (let i = header + 1; i < lines.length && !isTableHeader(lines[i] ?? ''); i += 1) {
    if (/^\s*hooks\s*=/.test(lines[i] ?? '')) {
      lines[i] = 'hooks = true';
      return lines.join('\n');
    }
  }
  lines.splice(header + 1, 0, 'hooks = true');
  return lines.join('\n');
}

/** Whether the text turns Codex's hooks on (`[features] hooks = true`, or the dotted form). */
export function codexHooksFeatureOn(toml: string): boolean {
  const lines = toml.replace(/\r\n/g, '\n').split('\n');
  let inFeatures = false;
  for (const line of lines) {
    if (isTableHeader(line)) inFeatures = /^\s*\[\s*features\s*\]/.test(line);
    else if (inFeatures && /^\s*(hooks|codex_hooks)\s*=\s*true\b/.test(line)) return true;
    else if (!inFeatures && /^\s*features\.(hooks|codex_hooks)\s*=\s*true\b/.test(line)) return true;
  }
  return false;
}

function isTableHeader(line: string): boolean {
  return /^\s*\[/.test(line);
}

function firstTable(lines: readonly string[]): number {
  const index = lines.findIndex(isTableHeader);
  return index < 0 ? lines.length : index;
}
