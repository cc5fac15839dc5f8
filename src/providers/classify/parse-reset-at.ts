/** Milliseconds per DURATION unit, by its first letter: "ms" and "milliseconds" are the only ones it would misread. */
const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

const DURATION = /(\d+(?:\.\d+)?)\s*(milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)\b/gi;
const RELATIVE =
  /(?:try again|retry|resets?|available again|wait)\s+(?:in\s+|after\s+|for\s+)?((?:\d+(?:\.\d+)?\s*[a-z]+[\s,]*(?:and\s+)?)+)/i;
const RETRY_DELAY = /"?retryDelay"?\s*[:=]\s*"?(\d+(?:\.\d+)?)s/i;
const ABSOLUTE = /(?:try again at|resets? at|resets|reset at|available again at)\s+([^\n·]+)/i;
const ISO = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/;
const CLOCK = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?(?:\s*\(([A-Za-z_]+\/[A-Za-z_/]+|UTC)\))?/i;
const MONTH_DATE = /^([A-Z][a-z]{2,8}\.? \d{1,2})(?:st|nd|rd|th)?,? (\d{4})?,?\s*(\d{1,2}(?::\d{2})?\s*[AP]M)?/i;

/**
 * Reads when a provider says it may be used again from its error text: "try again in 2 hours
 * 5 minutes", "Please retry in 12.5s", "try again at 5:12 PM", "resets 3pm (Europe/Paris)",
 * "try again at Nov 23rd, 2026 5:12 PM", ISO timestamps and epoch numbers. Relative times count
 * from `now`; a bare clock time means its next occurrence in the named zone, else the host's zone
 * (what the CLI printing it used). Pure apart from that zone lookup.
 * @returns epoch ms, or undefined when the text names no time.
 */
export function parseResetAt(text: string, now: number): number | undefined {
  const relative = RELATIVE.exec(text);
  if (relative !== null) {
    const ms = sumDurations(relative[1]!);
    if (ms !== undefined) return now + ms;
  }
  const delay = RETRY_DELAY.exec(text);
  if (delay !== null) return now + Math.round(Number(delay[1]) * 1_000);
  const absolute = ABSOLUTE.exec(text);
  if (absolute === null) return undefined;
  return parseAbsolute(absolute[1]!.trim(), now);
}

/** Reads an epoch number (seconds or ms) or a date string; undefined when it is neither. */
export function parseEpochOrDate(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    return value < 1e12 ? Math.round(value * 1_000) : Math.round(value);
  }
  if (typeof value === 'string' && value.trim() !== '') {
    if (/^\d+(\.\d+)?$/.test(value.trim())) return parseEpochOrDate(Number(value));
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

function sumDurations(text: string): number | undefined {
  const matches = [...text.matchAll(DURATION)];
  if (matches.length === 0) return undefined;
  return Math.round(matches.reduce((total, [, amount, unit]) => total + Number(amount) * unitMs(unit!.toLowerCase()), 0));
}

function unitMs(unit: string): number {
  return unit === 'ms' || unit.startsWith('milli') ? 1 : UNIT_MS[unit[0]!]!;
}

function parseAbsolute(text: string, now: number): number | undefined {
  const iso = ISO.exec(text);
  if (iso !== null) return parseEpochOrDate(iso[0]);
  const epoch = /^(\d{10}|\d{13})\b/.exec(text);
  if (epoch !== null) return parseEpochOrDate(Number(epoch[1]));
  const dated = MONTH_DATE.exec(text);
  if (dated !== null && (dated[2] !== undefined || dated[3] !== undefined)) {
    const year = dated[2] ?? String(new Date(now).getFullYear());
    const t = Date.parse(`${dated[1]}, ${year} ${dated[3] ?? '00:00'}`);
    if (!Number.isNaN(t)) return t;
  }
  const clock = CLOCK.exec(text);
  if (clock === null) return undefined;
  let hour = Number(clock[1]);
  const minute = Number(clock[2] ?? 0);
  const meridiem = clock[3]?.toLowerCase();
  // A bare number without am/pm or minutes is too ambiguous ("resets 5 times").
  if (meridiem === undefined && clock[2] === undefined) return undefined;
  if (meridiem === 'pm' && hour < 12) hour += 12;
  if (meridiem === 'am' && hour === 12) hour = 0;
  if (hour > 23 || minute > 59) return undefined;
  return nextClockTime(hour, minute, clock[4], now);
}

/** Next instant after `now` when the wall clock in `zone` (default: host zone) shows hour:minute. */
function nextClockTime(hour: number, minute: number, zone: string | undefined, now: number): number {
  const offset = zoneOffsetMs(zone, now);
  const wall = new Date(now + offset);
  let candidate = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate(), hour, minute) - offset;
  if (candidate <= now) candidate += 86_400_000;
  return candidate;
}

function zoneOffsetMs(zone: string | undefined, now: number): number {
  if (zone === undefined) return -new Date(now).getTimezoneOffset() * 60_000;
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(new Date(now));
    const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
    const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return asUtc - Math.floor(now / 1_000) * 1_000;
  } catch {
    return -new Date(now).getTimezoneOffset() * 60_000;
  }
}
