import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { OutcomeKind } from '../../src/ledger/index.js';
import { AGENT_CLI_SPECS, type AgentCliType, classifyOutcome, type TokenUsage } from '../../src/providers/index.js';

/** One recorded (real CLI, offline) or documented (REFERENCE.md) agent run. */
interface AgentFixture {
  source: 'recorded' | 'documented';
  cli: AgentCliType;
  argv: string[];
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** The prompt Baton sent, when the output may echo it. */
  prompt?: string;
  expectedKind: OutcomeKind;
  /** Text the outcome's reason must contain. */
  expectedReason?: string;
  expectedModel?: string;
  expectedUsage?: TokenUsage;
  expectedResponse?: string;
  expectedResetInMs?: number;
  expectedResetAtIso?: string;
  expectedResetLocalTime?: string;
  expectedResetZoneTime?: { zone: string; time: string };
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/agents');
const NOW = Date.parse('2026-11-22T12:00:00Z');
const DAY_MS = 86_400_000;

function loadFixtures(): [string, AgentFixture][] {
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(path.join(ROOT, d.name))
        .filter((f) => f.endsWith('.json'))
        .map((f): [string, AgentFixture] => [
          `${d.name}/${f.replace(/\.json$/, '')}`,
          JSON.parse(readFileSync(path.join(ROOT, d.name, f), 'utf8')) as AgentFixture,
        ]),
    );
}

function classify(fixture: AgentFixture) {
  const spec = AGENT_CLI_SPECS[fixture.cli];
  const parsed = spec.parseOutput(fixture.stdout, fixture.stderr);
  const outcome = classifyOutcome({
    provider: fixture.cli,
    stdout: fixture.stdout,
    stderr: fixture.stderr,
    parsed,
    timedOut: fixture.timedOut,
    now: NOW,
    ...(fixture.prompt === undefined ? {} : { prompt: fixture.prompt }),
    ...(spec.exitCodes === undefined ? {} : { exitCodes: spec.exitCodes }),
    ...(fixture.exitCode === null ? {} : { exitCode: fixture.exitCode }),
  });
  return { parsed, outcome };
}

function wallClock(epochMs: number, zone?: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(zone ? { timeZone: zone } : {}),
  }).format(new Date(epochMs));
}

const fixtures = loadFixtures();

describe('classifyOutcome on agent CLI fixtures', () => {
  it('has recorded fixtures from the real CLIs and documented ones for every CLI', () => {
    const recorded = new Set(fixtures.filter(([, f]) => f.source === 'recorded').map(([, f]) => f.cli));
    const documented = new Set(fixtures.map(([, f]) => f.cli));
    expect([...recorded].sort()).toEqual(['claude', 'codex', 'copilot', 'gemini']);
    expect([...documented].sort()).toEqual(['claude', 'codex', 'copilot', 'cursor', 'gemini']);
  });

  it.each(fixtures)('%s gives its expected outcome', (_name, fixture) => {
    const { parsed, outcome } = classify(fixture);
    expect(outcome.kind).toBe(fixture.expectedKind);
    expect(outcome.reason ?? '').not.toMatch(/\n/);
    if (fixture.expectedReason !== undefined) expect(outcome.reason).toContain(fixture.expectedReason);
    if (fixture.expectedModel !== undefined) expect(parsed.model).toBe(fixture.expectedModel);
    if (fixture.expectedUsage !== undefined) expect(parsed.usage).toEqual(fixture.expectedUsage);
    if (fixture.expectedResponse !== undefined) expect(parsed.response).toBe(fixture.expectedResponse);
    if (fixture.expectedResetInMs !== undefined) expect(outcome.resetAt).toBe(NOW + fixture.expectedResetInMs);
    if (fixture.expectedResetAtIso !== undefined) expect(outcome.resetAt).toBe(Date.parse(fixture.expectedResetAtIso));
    if (fixture.expectedResetLocalTime !== undefined) {
      expect(outcome.resetAt).toBeGreaterThan(NOW);
      expect(outcome.resetAt! - NOW).toBeLessThanOrEqual(DAY_MS);
      expect(wallClock(outcome.resetAt!)).toBe(fixture.expectedResetLocalTime);
    }
    if (fixture.expectedResetZoneTime !== undefined) {
      expect(outcome.resetAt).toBeGreaterThan(NOW);
      expect(outcome.resetAt! - NOW).toBeLessThanOrEqual(DAY_MS);
      expect(wallClock(outcome.resetAt!, fixture.expectedResetZoneTime.zone)).toBe(fixture.expectedResetZoneTime.time);
    }
  });
});
