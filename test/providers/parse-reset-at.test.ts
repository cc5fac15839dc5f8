import { describe, expect, it } from 'vitest';
import { parseEpochOrDate, parseResetAt } from '../../src/providers/index.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('parseResetAt', () => {
  it('adds relative durations to now', () => {
    expect(parseResetAt('try again in 2 hours 15 minutes.', NOW)).toBe(NOW + 8_100_000);
    expect(parseResetAt('Please retry in 12.5s', NOW)).toBe(NOW + 12_500);
    expect(parseResetAt('usage resets in 3 days', NOW)).toBe(NOW + 3 * 86_400_000);
    expect(parseResetAt('Please wait 42 seconds before trying again.', NOW)).toBe(NOW + 42_000);
    expect(parseResetAt('"retryDelay": "41s"', NOW)).toBe(NOW + 41_000);
  });

  it('reads absolute ISO and epoch times', () => {
    expect(parseResetAt('Try again at 2026-11-22T15:30:00Z.', NOW)).toBe(Date.parse('2026-11-22T15:30:00Z'));
    expect(parseResetAt('resets at 1795881600', NOW)).toBe(1_795_881_600_000);
  });

  it('reads a dated reset time', () => {
    const at = parseResetAt("You've hit your usage limit. Try again at Nov 23rd, 2026 5:12 PM.", NOW)!;
    const d = new Date(at);
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes()]).toEqual([2026, 10, 23, 17, 12]);
  });

  it('takes a bare clock time as its next occurrence, in the zone named', () => {
    const at = parseResetAt('resets 9am (UTC)', NOW)!;
    expect(at).toBe(Date.parse('2026-11-23T09:00:00Z'));
    const later = parseResetAt('resets 1:30pm (UTC)', NOW)!;
    expect(later).toBe(Date.parse('2026-11-22T13:30:00Z'));
  });

  it('finds no time where none is named', () => {
    expect(parseResetAt('Please wait and try again later.', NOW)).toBeUndefined();
    expect(parseResetAt('resets 5 times', NOW)).toBeUndefined();
    expect(parseResetAt('', NOW)).toBeUndefined();
  });
});

describe('parseEpochOrDate', () => {
  it('accepts epoch seconds, epoch ms, numeric strings and ISO strings', () => {
    expect(parseEpochOrDate(1_795_881_600)).toBe(1_795_881_600_000);
    expect(parseEpochOrDate(1_795_881_600_123)).toBe(1_795_881_600_123);
    expect(parseEpochOrDate('1795881600')).toBe(1_795_881_600_000);
    expect(parseEpochOrDate('2026-11-22T15:00:00Z')).toBe(Date.parse('2026-11-22T15:00:00Z'));
    expect(parseEpochOrDate('soon')).toBeUndefined();
    expect(parseEpochOrDate(undefined)).toBeUndefined();
  });
});
