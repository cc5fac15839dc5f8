/** The shared ledger contract, run against the real Redis (DB 15, one namespace per test). */
import { describe } from 'vitest';
import { openLedger } from '../../src/ledger/index.js';
import { deleteNamespace, describeWithRedis, REDIS_TEST_URL, uniqueNamespace } from '../helpers/redis.js';
import { describeLedgerContract } from './contract.js';

await describeWithRedis('redis ledger', () => {
  describe('contract', () => {
    describeLedgerContract('redis', async () => {
      const namespace = uniqueNamespace('contract');
      const ledger = await openLedger({ spec: REDIS_TEST_URL, namespace });
      return {
        ledger,
        shared: { spec: REDIS_TEST_URL, env: { BATON_NAMESPACE: namespace } },
        cleanup: async () => {
          await ledger.close();
          await deleteNamespace(namespace);
        },
      };
    });
  });
});
