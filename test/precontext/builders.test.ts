import { describe, expect, it } from 'vitest';
import {
  buildHelperContext,
  buildProviderSwitchContext,
  buildRetryContext,
  detectTaskLoop,
  isPreContextEnabled,
} from '../../src/precontext/index.js';
import { countTokens } from '../../src/tokens/index.js';
import { dispatch, warnings } from './fixtures.js';

const lineCount = (block: string) => block.trimEnd().split('\n').length;

describe('buildProviderSwitchContext', () => {
  it('renders seed 000 format with files, the validation error and a trailing blank line', () => {
    const block = buildProviderSwitchContext({
      dispatches: [
        dispatch({ attempt: 2, provider: 'gemini', outcome: 'rate_limited', filesCreated: ['src/auth/middleware.ts'] }),
        dispatch({
          attempt: 1,
          provider: 'copilot',
          outcome: 'validation_failed',
          filesUpdated: ['src/index.ts'],
          validationErrors: ['auth routes not registered correctly', 'second'],
        }),
      ],
    });
    expect(block).toMatchInlineSnapshot(`
      "--- PROVIDER SWITCH CONTEXT ---
      Previous provider (gemini) failed: rate_limited
      Previous attempt created: src/auth/middleware.ts
      Previous attempt modified: src/index.ts
      Validation error: "auth routes not registered correctly"
      Continue from where gemini left off. Avoid recreating existing files.
      --- END CONTEXT ---

      "
    `);
    expect(block.split('\n').length - 1).toBeLessThanOrEqual(8);
  });

  it('omits optional lines when the failed try touched nothing', () => {
    const block = buildProviderSwitchContext({ dispatches: [dispatch({ attempt: 1, provider: 'claude', outcome: 'quota_exhausted' })] });
    expect(block).toMatchInlineSnapshot(`
      "--- PROVIDER SWITCH CONTEXT ---
      Previous provider (claude) failed: quota_exhausted
      Continue from where claude left off. Avoid recreating existing files.
      --- END CONTEXT ---

      "
    `);
  });

  it('lists at most 3 files per list', () => {
    const block = buildProviderSwitchContext({
      dispatches: [dispatch({ attempt: 1, provider: 'p', outcome: 'timeout', filesCreated: ['a', 'b', 'c', 'd', 'e'] })],
    });
    expect(block).toContain('Previous attempt created: a, b, c\n');
  });

  it('returns an empty string and logs a warning for a missing or corrupt dispatch', () => {
    const { logger, messages } = warnings();
    expect(buildProviderSwitchContext({ dispatches: [], logger })).toBe('');
    expect(buildProviderSwitchContext({ dispatches: [{ attempt: 'x', provider: 7 }], logger })).toBe('');
    expect(buildProviderSwitchContext({ dispatches: [null], logger })).toBe('');
    expect(messages).toHaveLength(3);
  });

  it('masks secrets that leaked into error text', () => {
    const block = buildProviderSwitchContext({
      dispatches: [
        dispatch({
          attempt: 1,
          provider: 'p',
          outcome: 'auth_failed',
          validationErrors: ['login failed with key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD'],
        }),
      ],
    });
    expect(block).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
    expect(block).toContain('REDACTED');
  });
});

describe('buildRetryContext', () => {
  it('renders seed 000 format with up to 3 errors and the files already touched', () => {
    const block = buildRetryContext({
      attempt: 2,
      dispatches: [
        dispatch({
          attempt: 1,
          provider: 'codex',
          outcome: 'validation_failed',
          filesCreated: ['src/auth/service.ts'],
          filesUpdated: ['src/index.ts'],
          validationErrors: ['Missing unit tests for auth service', 'Test coverage below 80%', 'Lint fails', 'dropped 4th'],
        }),
      ],
    });
    expect(block).toMatchInlineSnapshot(`
      "--- RETRY CONTEXT ---
      Attempt #2 - Previous validation failures:
      - Missing unit tests for auth service
      - Test coverage below 80%
      - Lint fails
      Already created: src/auth/service.ts
      Already modified: src/index.ts
      Focus on fixing validation failures listed above.
      --- END CONTEXT ---

      "
    `);
    expect(lineCount(block)).toBe(9);
  });

  it('explains an attempt that ended before validation (interrupted, all providers open)', () => {
    const interrupted = buildRetryContext({
      attempt: 2,
      dispatches: [dispatch({ attempt: 1, provider: 'p', status: 'interrupted', outcome: 'interrupted' })],
    });
    expect(interrupted).toContain('- previous attempt was interrupted before validation\n');
    const open = buildRetryContext({
      attempt: 3,
      dispatches: [dispatch({ attempt: 2, provider: 'none', result: 'All providers circuit-broken' })],
    });
    expect(open).toContain('- previous attempt ended before validation: All providers circuit-broken\n');
  });

  it('ignores helper dispatches and uses the latest earlier attempt', () => {
    const block = buildRetryContext({
      attempt: 3,
      dispatches: [
        dispatch({ attempt: 2, provider: 'helper-agent', mode: 'helper', validationErrors: ['helper noise'] }),
        dispatch({ attempt: 2, provider: 'p', validationErrors: ['second attempt error'] }),
        dispatch({ attempt: 1, provider: 'p', validationErrors: ['first attempt error'], filesCreated: ['x.ts'] }),
      ],
    });
    expect(block).toContain('- second attempt error\n');
    expect(block).not.toContain('helper noise');
    expect(block).not.toContain('first attempt error');
    expect(block).toContain('Already created: x.ts');
  });

  it('returns an empty string with a warning on attempt 1 or without history', () => {
    const { logger, messages } = warnings();
    expect(buildRetryContext({ attempt: 1, dispatches: [dispatch({ attempt: 1, provider: 'p' })], logger })).toBe('');
    expect(buildRetryContext({ attempt: 2, dispatches: [], logger })).toBe('');
    expect(buildRetryContext({ attempt: 2, dispatches: [{ garbage: true }], logger })).toBe('');
    expect(messages).toHaveLength(3);
  });
});

describe('buildHelperContext', () => {
  const history = [
    dispatch({ attempt: 2, provider: 'p', filesUpdated: ['src/index.ts'], validationErrors: ['endpoint returns 404'] }),
    dispatch({ attempt: 1, provider: 'p', filesCreated: ['src/routes/health.ts'], validationErrors: ['endpoint not registered'] }),
  ];

  it('renders seed 000 format with the last 2 attempts, oldest first', () => {
    const block = buildHelperContext({ attempt: 2, dispatches: history });
    expect(block).toMatchInlineSnapshot(`
      "--- HELPER AGENT CONTEXT ---
      Attempt #2 (1 previous retries) - validation failed
      Attempt 1 touched: src/routes/health.ts - error: "endpoint not registered"
      Attempt 2 touched: src/index.ts - error: "endpoint returns 404"
      Generate commands to verify ALL failed criteria from ALL attempts.
      --- END CONTEXT ---

      "
    `);
  });

  it('adds the loop warning when the last 3 attempts share their first error, and shows only 2', () => {
    const looping = [3, 2, 1].map((attempt) => dispatch({ attempt, provider: 'p', validationErrors: ['same error'] }));
    const block = buildHelperContext({ attempt: 3, dispatches: looping });
    expect(block).toContain('Task appears stuck in validation loop - try different approach\n');
    expect(block).not.toContain('Attempt 1 ');
    expect(block).toContain('Attempt 2 - error: "same error"');
    expect(block.split('\n').length - 1).toBeLessThanOrEqual(8);
  });

  it('returns an empty string with a warning when nothing is readable', () => {
    const { logger, messages } = warnings();
    expect(buildHelperContext({ attempt: 1, dispatches: [undefined, 42], logger })).toBe('');
    expect(messages).toHaveLength(1);
  });
});

describe('limits', () => {
  const huge = 'error text that goes on and on '.repeat(200);

  it('never exceeds 100 tokens or 10 lines, cutting long error text but keeping the delimiters', () => {
    const many = Array.from({ length: 30 }, (_, i) => `src/deeply/nested/path/number-${i}/component-file-name-${i}.tsx`);
    const blocks = [
      buildProviderSwitchContext({
        dispatches: [
          dispatch({
            attempt: 1,
            provider: 'p',
            outcome: 'timeout',
            filesCreated: many,
            filesUpdated: many.map((f) => `${f}.bak`),
            validationErrors: [huge],
          }),
        ],
      }),
      buildRetryContext({
        attempt: 2,
        dispatches: [dispatch({ attempt: 1, provider: 'p', filesCreated: many, filesUpdated: many, validationErrors: [huge, huge, huge] })],
      }),
      buildHelperContext({
        attempt: 3,
        dispatches: [3, 2, 1].map((attempt) => dispatch({ attempt, provider: 'p', filesCreated: many, validationErrors: [huge] })),
      }),
    ];
    for (const block of blocks) {
      expect(countTokens(block)).toBeLessThanOrEqual(100);
      expect(lineCount(block)).toBeLessThanOrEqual(10);
      expect(block.trimEnd().endsWith('--- END CONTEXT ---')).toBe(true);
      expect(block.endsWith('\n\n')).toBe(true);
    }
    expect(blocks[1]).toContain('Focus on fixing validation failures listed above.');
    expect(blocks[2]).toContain('Task appears stuck in validation loop');
  });

  it('drops the lowest-priority lines first when maxLines is lowered', () => {
    const block = buildRetryContext({
      attempt: 2,
      limits: { maxLines: 6 },
      dispatches: [dispatch({ attempt: 1, provider: 'p', filesCreated: ['a.ts'], validationErrors: ['e1', 'e2', 'e3'] })],
    });
    expect(lineCount(block)).toBe(6);
    expect(block).toContain('- e1\n');
    expect(block).not.toContain('- e3');
    expect(block).toContain('--- END CONTEXT ---');
  });

  it('honours maxFiles and a smaller token budget', () => {
    const block = buildRetryContext({
      attempt: 2,
      limits: { maxFiles: 1, maxTokens: 40 },
      dispatches: [dispatch({ attempt: 1, provider: 'p', filesCreated: ['a.ts', 'b.ts'], validationErrors: [huge] })],
    });
    expect(countTokens(block)).toBeLessThanOrEqual(40);
    expect(block).not.toContain('b.ts');
  });
});

describe('detectTaskLoop and isPreContextEnabled', () => {
  it('needs 3 attempts with the same non-empty first error', () => {
    const a = (e: string[]) => ({ validationErrors: e });
    expect(detectTaskLoop([a(['x']), a(['x'])])).toBe(false);
    expect(detectTaskLoop([a(['y']), a(['x', '1']), a(['x', '2']), a(['x'])])).toBe(true);
    expect(detectTaskLoop([a([]), a([]), a([])])).toBe(false);
    expect(detectTaskLoop([a(['x']), a(['z']), a(['x'])])).toBe(false);
  });

  it('lets a task option override the global switch while types still filter', () => {
    const off = { enabled: false, types: ['retry', 'helper'] as const };
    expect(isPreContextEnabled(off, 'retry')).toBe(false);
    expect(isPreContextEnabled(off, 'retry', { enable_pre_context: true })).toBe(true);
    expect(isPreContextEnabled(off, 'circuit_breaker', { enable_pre_context: true })).toBe(false);
    expect(isPreContextEnabled({ ...off, enabled: true }, 'helper', { enable_pre_context: false })).toBe(false);
  });
});

describe('hardening', () => {
  it('masks a secret that straddles the value length cut instead of leaving its head', () => {
    const token = `ghp_${'A1b2C3d4'.repeat(5)}`;
    const block = buildProviderSwitchContext({
      limits: { maxTokens: 1000 },
      dispatches: [dispatch({ attempt: 1, provider: 'p', outcome: 'auth_failed', validationErrors: [`${'x'.repeat(225)} ${token}`] })],
    });
    expect(block).not.toContain('ghp_A1b2');
    expect(block).toContain('[REDACTED');
  });

  it('masks a private key longer than any window, even when it starts late in the value', () => {
    const key = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEA'.repeat(120)}\n-----END RSA PRIVATE KEY-----`;
    const block = buildRetryContext({
      attempt: 2,
      limits: { maxTokens: 1000 },
      dispatches: [dispatch({ attempt: 1, provider: 'p', validationErrors: [`leaked ${key}`] })],
    });
    expect(block).not.toContain('MIIEowIBAAKCAQEA');
  });

  it('defuses special-token markers instead of throwing on them', () => {
    const { logger, messages } = warnings();
    const block = buildRetryContext({
      attempt: 2,
      logger,
      dispatches: [dispatch({ attempt: 1, provider: 'p', validationErrors: ['model printed <|endoftext|> and stopped '.repeat(20)] })],
    });
    expect(block).toContain('<endoftext>');
    expect(block).not.toContain('<|endoftext|>');
    expect(countTokens(block)).toBeLessThanOrEqual(100);
    expect(messages).toHaveLength(0);
  });

  it('stays within the limits when lines start with whitespace-like or non-ASCII text', () => {
    const weird = ['🙂é漢字 '.repeat(60), '/abs/path/'.repeat(30), 'ＡＢＣ　ｄｅｆ'.repeat(40)];
    for (const error of weird) {
      for (const block of [
        buildProviderSwitchContext({
          dispatches: [dispatch({ attempt: 1, provider: 'p', outcome: 'timeout', filesCreated: [error], validationErrors: [error] })],
        }),
        buildRetryContext({
          attempt: 2,
          dispatches: [dispatch({ attempt: 1, provider: 'p', filesUpdated: [error], validationErrors: [error, error, error] })],
        }),
        buildHelperContext({
          attempt: 2,
          dispatches: [2, 1].map((attempt) => dispatch({ attempt, provider: 'p', filesCreated: [error], validationErrors: [error] })),
        }),
      ]) {
        expect(countTokens(block)).toBeLessThanOrEqual(100);
        expect(lineCount(block)).toBeLessThanOrEqual(10);
        expect(block.endsWith('--- END CONTEXT ---\n\n')).toBe(true);
        expect(block).not.toContain('\uFFFD');
      }
    }
  });

  it('fits every generated history exactly: each block re-counts to <= 100 tokens', () => {
    let seed = 11;
    const random = () => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return seed / 4_294_967_296;
    };
    const words = ['auth', 'route', '404', 'é', 'tab', 'null', '"quoted"', 'src/x.ts', '—', 'expected', 'x'.repeat(30)];
    const text = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' ');
    for (let i = 0; i < 300; i++) {
      const history = [3, 2, 1].map((attempt) =>
        dispatch({
          attempt,
          provider: 'p',
          outcome: 'validation_failed',
          filesCreated: Array.from({ length: Math.floor(random() * 5) }, () => `src/${text(2)}.ts`),
          filesUpdated: Array.from({ length: Math.floor(random() * 5) }, () => `lib/${text(3)}.ts`),
          validationErrors: Array.from({ length: Math.floor(random() * 4) }, () => text(1 + Math.floor(random() * 60))),
        }),
      );
      for (const block of [
        buildProviderSwitchContext({ dispatches: history }),
        buildRetryContext({ attempt: 4, dispatches: history }),
        buildHelperContext({ attempt: 3, dispatches: history }),
      ]) {
        expect(countTokens(block)).toBeLessThanOrEqual(100);
        expect(block.endsWith('--- END CONTEXT ---\n\n')).toBe(true);
      }
    }
  });
});
