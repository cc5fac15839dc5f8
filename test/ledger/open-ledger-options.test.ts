/** openLedger's options from code: an unknown key or a value of the wrong type is named, with the spelling expected. */
import { describe, expect, it } from 'vitest';
import { MemoryLedger, openLedger } from '../../src/ledger/index.js';

describe('openLedger options', () => {
  it('names a misspelled option with the spelling expected, before opening anything', async () => {
    await expect(openLedger({ spec: 'memory', connectTimeout: 500 } as never)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: 'openLedger options: unknown key "connectTimeout" (did you mean "connectTimeoutMs"?)',
      details: { suggestion: 'connectTimeoutMs' },
    });
    await expect(openLedger({ ledger: 'memory' } as never)).rejects.toThrow(
      'openLedger options: unknown key "ledger" (expected one of: spec, cwd, connectTimeoutMs, namespace, create, readOnlyFallback, busyTimeoutMs, now)',
    );
  });

  it('names a value of the wrong type with what was found', async () => {
    await expect(openLedger({ spec: 'memory', create: 'yes' } as never)).rejects.toThrow(
      'openLedger options: create: Invalid input: expected boolean, received string; got "yes"',
    );
  });

  it('opens with valid options, undefined values included', async () => {
    expect(await openLedger({ spec: 'memory', namespace: undefined })).toBeInstanceOf(MemoryLedger);
  });
});
