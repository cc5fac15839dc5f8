import { BatonError } from '../errors/index.js';

/**
 * Imports a package Baton lists as an optional peer dependency, turning "not installed" into
 * BatonError('DEPENDENCY_MISSING') that names the packages to install and the feature that needs
 * them. Any other failure (a broken install) propagates unchanged.
 *
 * @example
 * const treeSitter = await importOptional<typeof import('web-tree-sitter')>('web-tree-sitter', {
 *   feature: 'Code snippets in the agent-loop context', packages: ['web-tree-sitter', 'tree-sitter-wasms'],
 * });
 */
export async function importOptional<T>(specifier: string, need: { feature: string; packages: readonly string[] }): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    if (isModuleNotFound(error)) throw missingDependency(need, error);
    throw error;
  }
}

/** Whether an import or require.resolve failed because the package is not installed. */
export function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/** The error for a missing optional package: what needs it and the command that installs it. */
export function missingDependency(need: { feature: string; packages: readonly string[] }, cause?: unknown): BatonError {
  const list = need.packages.join(' ');
  return new BatonError(
    'DEPENDENCY_MISSING',
    `${need.feature} needs the optional package${need.packages.length > 1 ? 's' : ''} ${need.packages.join(' and ')}: run npm install ${list}`,
    {
      cause,
      details: { packages: [...need.packages] },
    },
  );
}
