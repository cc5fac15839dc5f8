// ESLint with typescript-eslint's type-aware rules. Chosen over Biome because its packages are plain
// JavaScript: the lockfile written on any machine is complete for every platform, so `npm ci` works
// everywhere (Biome's per-platform binaries were missing from it). Formatting is Prettier's job.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The async code must not drop a promise: a forgotten await loses a ledger write or an error.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Ledger backends and providers implement async interfaces; a body with nothing to await is fine.
      '@typescript-eslint/require-await': 'off',
      // An abort rejects with the signal's own reason, whatever the caller put there.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true }],
      // String(value) of outside data typed unknown or {} is deliberate where it is rendered.
      '@typescript-eslint/no-base-to-string': 'off',
      // Regexes here match terminal output, ANSI escapes included.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests poke at parsed JSON (CLI --json output, MCP results): `any` there is checked by expect().
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Only open-sqlite-database.ts may construct better-sqlite3 objects: every other one would be
    // garbage-collected, which aborts Node 24 (see that file).
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    ignores: ['src/ledger/sqlite/open-sqlite-database.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'better-sqlite3',
              message:
                'Use openSqliteDatabase() from src/ledger/sqlite: it keeps native objects alive (Node 24 aborts when one is collected).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
