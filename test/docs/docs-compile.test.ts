/**
 * Docs that run (issue 27): every ```ts block of README.md and docs/*.md and every TypeScript file
 * of examples/ type-checks against the BUILT package, as a user's project sees it: Baton installed
 * from the packed tarball beside the framework packages the examples use, compiled in one run of
 * that project's own tsc (strict, NodeNext, `skipLibCheck: false`, so Baton's .d.ts and what they
 * import are checked too). A canary block with a known type error is compiled in the same run: it
 * must fail, so a check that silently compiles nothing cannot pass. Errors are reported at the
 * markdown line they come from.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSUMER_COMPILER_OPTIONS, type ConsumerProject, consumerProject, REPO_ROOT } from '../helpers/consumer-project.js';
import { FRAMEWORK_PACKAGES } from '../helpers/framework-packages.js';
import { type CompiledFile, exampleFiles, extractBlocks, filesToCompile, markdownFiles, pointAtOrigin } from './helpers/doc-blocks.js';

const INSTALL_TIMEOUT_MS = 1_200_000;
/** tsc with skipLibCheck false over every block and example: slow on a busy machine. */
const COMPILE_TIMEOUT_MS = 600_000;
const CANARY: CompiledFile = {
  name: 'doc-blocks/canary.ts',
  source: "import { createContextManager } from 'agent-baton';\nawait createContextManager({ limitTokens: 'many' });\n",
  origin: 'canary',
  firstLine: 1,
};

let project: ConsumerProject;

beforeAll(async () => {
  project = await consumerProject({ packages: FRAMEWORK_PACKAGES });
}, INSTALL_TIMEOUT_MS);

describe('the TypeScript in README.md, docs/ and examples/', () => {
  it('finds the blocks: README, docs/loop.md and docs/api.md have some, and a fragment is left out only with its reason', () => {
    const { files, fragments } = filesToCompile(REPO_ROOT);
    const origins = new Set(files.map((f) => f.origin));
    expect(origins).toContain('README.md');
    expect(origins).toContain('docs/loop.md');
    expect(origins).toContain('docs/api.md');
    for (const example of exampleFiles(REPO_ROOT)) expect(origins).toContain(example);
    for (const fragment of fragments) expect(fragment.fragment?.trim().length).toBeGreaterThan(10);
    // The extractor itself: fence kinds, indentation, the marker.
    const sample = [
      '```ts',
      'const a = 1;',
      '```',
      '<!-- docs-compile: fragment (a call shown alone) -->',
      '```typescript',
      'f(x);',
      '```',
      '```sh',
      'npm test',
      '```',
      '- item:',
      '  ```ts',
      '  const b = 2;',
      '  ```',
    ].join('\n');
    expect(extractBlocks('x.md', sample)).toEqual([
      { file: 'x.md', line: 2, source: 'const a = 1;\n' },
      { file: 'x.md', line: 6, source: 'f(x);\n', fragment: 'a call shown alone' },
      { file: 'x.md', line: 13, source: 'const b = 2;\n' },
    ]);
  });

  it('examples import the package by its name, never the repository’s src/', () => {
    for (const example of exampleFiles(REPO_ROOT)) {
      const source = readFileSync(path.join(REPO_ROOT, example), 'utf8');
      expect(source, example).not.toMatch(/from\s+['"](\.\.?\/)+(src|dist)\//);
      expect(source, example).toMatch(/from\s+'agent-baton'/);
    }
    for (const file of markdownFiles(REPO_ROOT)) {
      for (const block of extractBlocks(file, readFileSync(path.join(REPO_ROOT, file), 'utf8'))) {
        expect(block.source, `${file}:${block.line}`).not.toMatch(/from\s+['"](\.\.?\/)+(src|dist)\//);
      }
    }
  });

  it(
    'type-check against the packed package with skipLibCheck false (the canary block fails, nothing else does)',
    async () => {
      expect(CONSUMER_COMPILER_OPTIONS.skipLibCheck).toBe(false);
      const { files } = filesToCompile(REPO_ROOT);
      const all = [...files, CANARY];
      const result = await project.typecheck(Object.fromEntries(all.map((f) => [f.name, f.source])), { timeoutMs: COMPILE_TIMEOUT_MS });
      // One diagnostic per unindented line, with the indented lines that continue it.
      const diagnostics = pointAtOrigin(`${result.stdout}\n${result.stderr}`, all)
        .split(/\n(?=\S)/)
        .map((d) => d.trim())
        .filter((d) => d.length > 0);
      expect(diagnostics.filter((d) => /^canary:2:\d+: error TS2322/.test(d))).toHaveLength(1);
      expect(diagnostics.filter((d) => !d.startsWith('canary:')).join('\n')).toBe('');
      expect(result.code).not.toBe(0);
    },
    COMPILE_TIMEOUT_MS,
  );
});
