import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/index.js';

describe('createLogger checks its options from code', () => {
  it('names an unknown key, a level pino does not have and a destination that is not a descriptor', () => {
    expect(() => createLogger({ lvl: 'info' } as never)).toThrow(
      'createLogger options: unknown key "lvl" (expected one of level, name, destination)',
    );
    expect(() => createLogger({ Level: 'info' } as never)).toThrow('unknown key "Level" (did you mean "level"?)');
    expect(() => createLogger({ level: 'verbose' })).toThrow(
      'level: expected one of fatal, error, warn, info, debug, trace, silent; got "verbose"',
    );
    expect(() => createLogger({ destination: 'stderr' } as never)).toThrow('destination: expected a file descriptor');
    expect(() => createLogger(null as never)).toThrow('createLogger options: expected an object');
  });

  it('names the option at fault in the error details', () => {
    const fieldOf = (options: unknown) => {
      try {
        createLogger(options as never);
      } catch (error) {
        return (error as { details?: { field?: string } }).details?.field;
      }
      return undefined;
    };
    expect(fieldOf({ lvl: 'info' })).toBe('lvl');
    expect(fieldOf({ level: 'verbose' })).toBe('level');
    expect(fieldOf({ destination: -1 })).toBe('destination');
  });

  it('makes a logger from good options', () => {
    expect(createLogger({ level: 'silent', name: 'mine', destination: 2 }).level).toBe('silent');
  });
});
