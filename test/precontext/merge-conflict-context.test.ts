import { describe, expect, it } from 'vitest';
import { buildMergeConflictContext } from '../../src/precontext/index.js';
import { countTokens } from '../../src/tokens/index.js';

describe('MERGE CONFLICT CONTEXT', () => {
  it('names the conflicting files, the task that changed them and what to keep, in the seam-block style', () => {
    const block = buildMergeConflictContext({ files: ['src/app.ts'], changedBy: [{ taskId: 'api', attempt: 2 }] });
    expect(block).toBe(
      [
        '--- MERGE CONFLICT CONTEXT ---',
        'Your passing result conflicted with work integrated meanwhile; this attempt starts from the new base.',
        'Conflicting files: src/app.ts',
        'Changed by: task api (attempt 2)',
        "Keep their changes as they now are in these files; redo this task's change on top of them.",
        '--- END CONTEXT ---',
        '',
        '',
      ].join('\n'),
    );
  });

  it('stays within 10 lines and 100 tokens with many long paths, and cuts the lists between items', () => {
    const files = Array.from({ length: 40 }, (_, i) => `packages/very-long-package-name-${i}/src/deeply/nested/folder/file-${i}.ts`);
    const changedBy = files.map((_, i) => ({ taskId: `task-with-a-long-identifier-${i}`, attempt: 1 }));
    const block = buildMergeConflictContext({ files, changedBy });
    expect(block.trimEnd().split('\n').length).toBeLessThanOrEqual(10);
    expect(countTokens(block)).toBeLessThanOrEqual(100);
    expect(block).toContain('--- END CONTEXT ---');
    expect(block).toContain("Keep their changes as they now are in these files; redo this task's change on top of them.");
    // The file list is cut between items, never inside a path.
    expect(block).toMatch(/^Conflicting files: …\/folder\/file-0\.ts, /m);
    expect((block.match(/file-\d+\.ts/g) ?? []).length).toBeLessThanOrEqual(3);
  });

  it("names a commit that is not a task's by its subject, and is empty without conflicting files", () => {
    expect(buildMergeConflictContext({ files: ['a.txt'], changedBy: [{ subject: 'hotfix by hand' }] })).toContain(
      'Changed by: commit "hotfix by hand"',
    );
    expect(buildMergeConflictContext({ files: [], changedBy: [] })).toBe('');
  });
});
