import { describe, expect, it } from 'vitest';
import { createSnippetExtractor, parseFileView, rankSnippets, renderSnippet } from '../../src/loop/index.js';

const SAMPLES: Record<string, { path: string; code: string; names: string[] }> = {
  typescript: {
    path: 'src/math.ts',
    code: 'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport class Calc {\n  total = 0;\n  push(n: number): void {\n    this.total += n;\n  }\n}\n\nexport const twice = (n: number) => n * 2;\n',
    names: ['add', 'Calc', 'push', 'twice'],
  },
  javascript: {
    path: 'lib/util.js',
    code: 'function slug(s) {\n  return s.toLowerCase();\n}\n\nclass Cache {\n  get(key) {\n    return this.map[key];\n  }\n}\n',
    names: ['slug', 'Cache', 'get'],
  },
  python: {
    path: 'pkg/stats.py',
    code: 'def mean(values):\n    return sum(values) / len(values)\n\n\nclass Stats:\n    def median(self, values):\n        return sorted(values)[len(values) // 2]\n',
    names: ['mean', 'Stats', 'median'],
  },
  java: {
    path: 'src/Main.java',
    code: 'public class Main {\n  public static int add(int a, int b) {\n    return a + b;\n  }\n\n  public Main() {\n  }\n}\n',
    names: ['Main', 'add'],
  },
  go: {
    path: 'main.go',
    code: 'package main\n\ntype Point struct {\n\tX int\n}\n\nfunc (p Point) Norm() int {\n\treturn p.X\n}\n\nfunc main() {\n}\n',
    names: ['Norm', 'main'],
  },
};

describe('snippet extractor (web-tree-sitter)', () => {
  for (const [language, sample] of Object.entries(SAMPLES)) {
    it(`cuts ${language} code at function and class boundaries`, async () => {
      const extractor = await createSnippetExtractor();
      const outline = extractor.outline(sample.path, sample.code, 1);
      const names = outline.map((o) => o.name);
      for (const name of sample.names) expect(names).toContain(name);
      const snippets = extractor.extract({ path: sample.path, startLine: 1, lines: sample.code.split('\n') });
      expect(snippets.length).toBeGreaterThan(0);
      for (const s of snippets) {
        // Each snippet's text is exactly the lines its range names.
        expect(s.text).toBe(
          sample.code
            .split('\n')
            .slice(s.startLine - 1, s.endLine)
            .join('\n'),
        );
      }
    });
  }

  it('numbers lines from the window start and marks each snippet path:start-end', async () => {
    const extractor = await createSnippetExtractor();
    const view = parseFileView(
      '[File: /repo/stats.py (90 lines total)]\n(39 more lines above)\n40:def mean(values):\n41:    return sum(values) / len(values)\n42:\n(48 more lines below)\n',
    );
    expect(view).toMatchObject({ path: '/repo/stats.py', startLine: 40, totalLines: 90 });
    const [snippet] = extractor.extract(view as NonNullable<typeof view>);
    expect(snippet).toMatchObject({ name: 'mean', startLine: 40, endLine: 41 });
    expect(renderSnippet(snippet as NonNullable<typeof snippet>)).toMatch(/^```\/repo\/stats\.py:40-41\ndef mean/);
  });

  it('finds the complete Python definitions after a window that opens inside a body, with their real lines', async () => {
    const extractor = await createSnippetExtractor();
    const code = [
      '            return total',
      '        except KeyError:',
      '            raise',
      '',
      '    def reset(self):',
      '        self.total = 0',
      '',
      '    @property',
      '    def size(self):',
      '        return len(self.items)',
    ].join('\n');
    const outline = extractor.outline('pkg/box.py', code, 200);
    expect(outline).toEqual([
      { name: 'reset', kind: 'function', startLine: 204, endLine: 205 },
      { name: 'size', kind: 'function', startLine: 207, endLine: 209 },
    ]);
  });

  it('parses the same code once (cache keyed by content hash)', async () => {
    const extractor = await createSnippetExtractor();
    const { path, code } = SAMPLES.python as { path: string; code: string };
    extractor.outline(path, code, 1);
    extractor.outline(path, code, 50);
    expect(extractor.parseCount).toBe(1);
    extractor.outline(path, `${code}\n# changed\n`, 1);
    expect(extractor.parseCount).toBe(2);
  });

  it('returns no outline for languages without a grammar', async () => {
    const extractor = await createSnippetExtractor();
    expect(extractor.outline('notes.md', '# title', 1)).toEqual([]);
  });

  it('ranks edited functions above merely recent ones, and mentions break ties', () => {
    const mk = (name: string, turn: number) => ({
      snippet: { path: 'a.py', name, kind: 'function', startLine: turn, endLine: turn + 1, text: name },
      turn,
    });
    const ranked = rankSnippets([mk('recent', 9), mk('edited', 2), mk('mentioned', 2)], {
      currentTurn: 10,
      isEdited: (_p, name) => name === 'edited',
      isFileEdited: () => true,
      mentions: (name) => (name === 'mentioned' ? 3 : 0),
    });
    expect(ranked.map((e) => e.snippet.name)).toEqual(['edited', 'mentioned', 'recent']);
  });
});
