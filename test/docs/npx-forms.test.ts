/**
 * The `npx` forms the docs show (issue 27: README said `npm install baton`, the unrelated package;
 * docs/supervisor.md used a bare `npx baton`; `npx --no baton --version` printed npm's version).
 * Every `npx` in README.md and docs/*.md, in prose, shell blocks and client configurations, is one
 * of the two forms that work (`npx agent-baton …`, `npx -y agent-baton …`) or another tool's
 * package; and those forms run Baton in a user's project made from the packed tarball, whatever
 * follows them, from the project root and from a subfolder.
 */
import { mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ConsumerProject, consumerProject, REPO_ROOT } from '../helpers/consumer-project.js';
import { markdownFiles } from './helpers/doc-blocks.js';
import { FRAMEWORK_PACKAGES } from '../helpers/framework-packages.js';

const INSTALL_TIMEOUT_MS = 1_200_000;
const RUN_TIMEOUT_MS = 300_000;
/** Other tools' packages the docs run with npx. */
const OTHER_TOOLS = /^(@modelcontextprotocol\/inspector|vitest|tsx)\b/;
/** The sentences that name the form not to use, to say why. */
const WARNINGS = ['`npx --no baton …`', '`npx --no baton --version`', '`--no baton`', 'bare `npx baton`'];

/** Each `npx` use of a markdown text (code blocks, and inline code in prose): its flags before the package, and the package. */
function npxUses(text: string): { line: number; flags: string; pkg: string }[] {
  const uses: { line: number; flags: string; pkg: string }[] = [];
  const lines = text.split('\n');
  let inBlock = false;
  lines.forEach((raw, i) => {
    if (/^\s*```/.test(raw)) {
      inBlock = !inBlock;
      return;
    }
    let line = raw;
    for (const warning of WARNINGS) line = line.split(warning).join('');
    const code = inBlock ? [line] : [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    for (const span of code) {
      for (const m of span.matchAll(/\bnpx((?:\s+-{1,2}[\w-]*)*)\s+([@\w][^\s'"]*)/g))
        uses.push({ line: i + 1, flags: (m[1] ?? '').trim(), pkg: m[2] ?? '' });
    }
    // A client configuration: "command": "npx" (JSON) or command = "npx" (TOML), then its args.
    if (/"command":\s*"npx"|command\s*=\s*"npx"/.test(line)) {
      const args = /"?args"?\s*[:=]\s*\[([^\]]*)\]/.exec(lines.slice(i, i + 3).join(' '))?.[1] ?? '';
      const list = [...args.matchAll(/"([^"]*)"/g)].map((a) => a[1] as string);
      const at = list.findIndex((a) => !a.startsWith('-'));
      uses.push({ line: i + 1, flags: list.slice(0, Math.max(at, 0)).join(' '), pkg: list[at] ?? '' });
    }
  });
  return uses;
}

let project: ConsumerProject;

beforeAll(async () => {
  project = await consumerProject({ packages: FRAMEWORK_PACKAGES });
}, INSTALL_TIMEOUT_MS);

describe('npx in the docs', () => {
  it('is `npx agent-baton …` or `npx -y agent-baton …` everywhere (or another tool’s package)', () => {
    const wrong: string[] = [];
    let seen = 0;
    for (const file of markdownFiles(REPO_ROOT)) {
      for (const use of npxUses(readFileSync(path.join(REPO_ROOT, file), 'utf8'))) {
        if (OTHER_TOOLS.test(use.pkg)) continue;
        seen += 1;
        const ok = use.pkg === 'agent-baton' && ['', '-y', '--'].includes(use.flags);
        if (!ok) wrong.push(`${file}:${use.line}: npx ${use.flags} ${use.pkg}`);
      }
    }
    expect(wrong.join('\n')).toBe('');
    expect(seen).toBeGreaterThan(10);
    // The scan itself sees the forms it must refuse.
    expect(npxUses('run `npx baton demo` or `npx --no baton mcp`').map((u) => `${u.flags}|${u.pkg}`)).toEqual(['|baton', '--no|baton']);
    expect(npxUses('```json\n"command": "npx",\n"args": ["--no", "baton", "mcp"]\n```')).toEqual([
      { line: 2, flags: '--no', pkg: 'baton' },
    ]);
    expect(npxUses('where npx would run that one, `npx` alone')).toEqual([]);
  });

  it(
    'runs Baton in a project with agent-baton installed, --version included, from the root and a subfolder',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const env = { npm_config_update_notifier: 'false' };
      const subfolder = path.join(project.dir, 'runs', 'npx-subfolder');
      await mkdir(subfolder, { recursive: true });
      for (const cwd of [project.dir, subfolder]) {
        for (const args of [
          ['agent-baton', '--version'],
          ['-y', 'agent-baton', '--version'],
        ]) {
          const result = await project.exec('npx', args, { cwd, env });
          expect(result.stdout.trim(), `npx ${args.join(' ')} in ${cwd}: ${result.stderr}`).toBe(project.baton.version);
        }
      }
      const help = await project.exec('npx', ['agent-baton', 'init', '--help'], { env });
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/Usage: baton init/);
    },
  );

  it(
    'is not `npx --no baton`: npx reads `--no baton` as an option and its value, and answers --version itself',
    { timeout: RUN_TIMEOUT_MS },
    async () => {
      const npm = await project.exec('npm', ['--version'], { env: { npm_config_update_notifier: 'false' } });
      const result = await project.exec('npx', ['--no', 'baton', '--version'], { env: { npm_config_update_notifier: 'false' } });
      expect(result.stdout.trim()).toBe(npm.stdout.trim());
      expect(result.stdout.trim()).not.toBe(project.baton.version);
    },
  );
});
