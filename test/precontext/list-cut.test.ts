import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/observability/index.js';
import { buildProviderSwitchContext, buildRetryContext } from '../../src/precontext/index.js';
import { countTokens } from '../../src/tokens/index.js';
import { dispatch } from './fixtures.js';

const CREATED = [
  'app/navigation/screens/settings/notifications-panel.tsx',
  'app/navigation/screens/settings/privacy-panel.tsx',
  'src/auth/session-refresh-handler.ts',
];
const UPDATED = ['src/routes/authentication-callbacks.ts', 'lib/formatting/currency-rounding.ts', 'test/integration/checkout-flow.test.ts'];
const ERRORS = [
  `Expected the checkout total to round half-even for every supported currency but got ${'a long explanation of the mismatch '.repeat(6)}`,
  `Snapshot mismatch in settings navigation: ${'the privacy tab renders before the notifications tab in the stack '.repeat(5)}`,
  `Type error in session refresh: ${'property expiresAt is possibly undefined when the token was never issued '.repeat(5)}`,
];

/** The paths a list line names, in the order shown; `…` marks items left out. */
function listed(block: string, label: string): string[] {
  const line = block.split('\n').find((l) => l.startsWith(label));
  if (!line) return [];
  return line
    .slice(label.length)
    .split(', ')
    .filter((item) => item !== '…');
}

describe('file lists cut to the token limit', () => {
  const history = [
    dispatch({
      attempt: 1,
      provider: 'gemini',
      outcome: 'validation_failed',
      filesCreated: CREATED,
      filesUpdated: UPDATED,
      validationErrors: ERRORS,
    }),
  ];

  it('keep whole paths in the RETRY CONTEXT and mark what was left out', () => {
    const block = buildRetryContext({ attempt: 2, dispatches: history, logger: silentLogger });
    expect(countTokens(block)).toBeLessThanOrEqual(100);
    const shown = [...listed(block, 'Already created: '), ...listed(block, 'Already modified: ')];
    expect(shown.length).toBeGreaterThan(0);
    // Each item is a complete path (shortened paths keep their last two segments).
    for (const item of shown)
      expect([...CREATED, ...UPDATED].some((p) => p === item || (item.startsWith('…/') && p.endsWith(item.slice(1))))).toBe(true);
    expect(block).toMatch(/, …\n/);
  });

  it('keep whole paths in the PROVIDER SWITCH CONTEXT', () => {
    const block = buildProviderSwitchContext({ dispatches: history, logger: silentLogger });
    expect(countTokens(block)).toBeLessThanOrEqual(100);
    const shown = [...listed(block, 'Previous attempt created: '), ...listed(block, 'Previous attempt modified: ')];
    for (const item of shown)
      expect([...CREATED, ...UPDATED].some((p) => p === item || (item.startsWith('…/') && p.endsWith(item.slice(1))))).toBe(true);
  });
});
