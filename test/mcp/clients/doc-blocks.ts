import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/launch.js';

/**
 * The fenced code blocks of one section of docs/mcp.md, so the suite runs the configuration the
 * page shows, word for word, and the page cannot drift from what was tested.
 * `section` is a heading's text (`Codex CLI`); its blocks run to the next heading of the same or a
 * higher level. Throws naming the section and language when there is no such block.
 */
export function docBlock(section: string, lang: string, index = 0): string {
  const lines = readFileSync(path.join(ROOT, 'docs', 'mcp.md'), 'utf8').split('\n');
  const start = lines.findIndex((line) => /^#{2,4} /.test(line) && line.replace(/^#+ /, '') === section);
  if (start < 0) throw new Error(`docs/mcp.md has no section "${section}"`);
  const level = (lines[start] as string).indexOf(' ');
  const blocks: string[] = [];
  let open: string[] | undefined;
  let fenceLang = '';
  for (const line of lines.slice(start + 1)) {
    if (!open && /^#+ /.test(line) && line.indexOf(' ') <= level) break;
    if (line.startsWith('```')) {
      if (open) {
        if (fenceLang === lang) blocks.push(open.join('\n'));
        open = undefined;
      } else {
        fenceLang = line.slice(3).trim();
        open = [];
      }
      continue;
    }
    open?.push(line);
  }
  const block = blocks[index];
  if (block === undefined) throw new Error(`docs/mcp.md, section "${section}": no ${lang} block #${index + 1}`);
  return block;
}
