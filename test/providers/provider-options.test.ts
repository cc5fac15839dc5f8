import { describe, expect, it } from 'vitest';
import { createAgentCliProvider, createCommandProvider, createProvider, createProviders } from '../../src/index.js';

describe('provider factories check their options from code', () => {
  it('names an unknown process option and the spelling expected', () => {
    const command = { type: 'command' as const, command: ['true'] };
    expect(() => createProvider('a', command, { killGrace: 100 } as never)).toThrow(
      /createProvider options: unknown key "killGrace" \(did you mean "killGraceMs"\?\)/,
    );
    expect(() => createCommandProvider('a', command, { output_cap_bytes: 10 } as never)).toThrow(
      /createCommandProvider options: unknown key "output_cap_bytes" \(did you mean "outputCapBytes"\?\)/,
    );
    expect(() => createAgentCliProvider('c', { type: 'claude' }, { killGraceMs: -1 })).toThrow(
      /createAgentCliProvider options: killGraceMs/,
    );
    expect(() => createProvider('a', command, { now: 5 } as never)).toThrow(/now: expected a clock/);
  });

  it('takes a whole config from loadConfig, and names a missing or wrong providers or priority', () => {
    const config = { providers: { a: { type: 'command', command: ['true'] } }, priority: ['a'], ledger: 'memory:', helper: 'a' };
    expect(Object.keys(createProviders(config as never, { killGraceMs: 1_000 }))).toEqual(['a']);
    expect(() => createProviders({ providers: {} } as never)).toThrow(
      /createProviders config: priority: expected the provider names in priority order/,
    );
    expect(() => createProviders({ priority: 'a', providers: {} } as never)).toThrow(/priority: expected the provider names/);
    expect(() => createProviders({ priority: [], providers: [] } as never)).toThrow(/providers: expected the providers, keyed by name/);
    expect(() => createProviders({ priority: [], providers: {} }, { kill_grace_ms: 1 } as never)).toThrow(
      /createProviders options: unknown key "kill_grace_ms"/,
    );
  });
});
