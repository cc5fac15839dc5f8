/**
 * The one contract every Ledger backend passes. A backend's test file calls
 * `describeLedgerContract(name, factory)`; each test gets a fresh, empty ledger from `factory`
 * and calls its `cleanup` afterwards. Timing-sensitive guarantees (lease expiry) use short real
 * waits instead of a fake clock, so the same tests run against Redis.
 */
import { describe, expect, it } from 'vitest';
import { isBreakerCapable, isClaimCapable, isFullLedger, isRecordCapable, isTransferCapable } from '../../src/ledger/index.js';
import { describeAgentSessionContract } from './fixtures/contract-agent-sessions.js';
import { describeAttemptContract } from './fixtures/contract-attempts.js';
import { describeClaimAndBreakerContract } from './fixtures/contract-claims.js';
import { describeDispatchContract } from './fixtures/contract-dispatches.js';
import { describeExportContract } from './fixtures/contract-export.js';
import { describeRecordContract } from './fixtures/contract-records.js';
import { describeRedactionContract } from './fixtures/contract-redaction.js';
import { type LedgerFactory, useLedgerContext } from './fixtures/ledger-context.js';
import { describeTaskContract } from './fixtures/contract-tasks.js';

export type { LedgerFactory } from './fixtures/ledger-context.js';

export function describeLedgerContract(name: string, factory: LedgerFactory): void {
  describe(`Ledger contract: ${name}`, () => {
    const ctx = useLedgerContext(factory);
    it('implements the core and every optional capability', () => {
      const { ledger } = ctx;
      expect([isClaimCapable(ledger), isBreakerCapable(ledger), isRecordCapable(ledger), isTransferCapable(ledger)]).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(isFullLedger(ledger)).toBe(true);
    });
    describeTaskContract(ctx);
    describeDispatchContract(ctx);
    describeAttemptContract(ctx);
    describeClaimAndBreakerContract(ctx);
    describeRecordContract(ctx);
    describeExportContract(ctx);
    describeAgentSessionContract(ctx);
    describeRedactionContract(ctx);
  });
}
