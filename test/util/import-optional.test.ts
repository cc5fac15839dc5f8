import { describe, expect, it } from 'vitest';
import { isBatonError } from '../../src/errors/index.js';
import { definedFields, importOptional } from '../../src/util/index.js';

const NEED = { feature: 'Code snippets in the agent-loop context', packages: ['baton-test-absent-package', 'tree-sitter-wasms'] };

describe('importOptional', () => {
  it('names the feature and the install command when the package is not installed (a real missing package)', async () => {
    const failure = await importOptional('baton-test-absent-package', NEED).catch((error: unknown) => error);
    expect(isBatonError(failure, 'DEPENDENCY_MISSING')).toBe(true);
    expect((failure as Error).message).toBe(
      'Code snippets in the agent-loop context needs the optional packages baton-test-absent-package and tree-sitter-wasms: run npm install baton-test-absent-package tree-sitter-wasms',
    );
  });

  it('returns the module when it is installed', async () => {
    const yaml = await importOptional<typeof import('yaml')>('yaml', NEED);
    expect(yaml.parse('a: 1')).toEqual({ a: 1 });
  });
});

describe('definedFields', () => {
  it('keeps only the defined entries, so spread fields are absent rather than undefined', () => {
    const out = definedFields({ a: 1, b: undefined, c: null, d: '' });
    expect(out).toEqual({ a: 1, c: null, d: '' });
    expect('b' in out).toBe(false);
  });
});
