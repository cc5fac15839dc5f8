import type { Breaker, Dispatch } from '../../ledger/index.js';
import { redactValue } from '../../redact/index.js';
import { formatAgo, formatDuration } from '../format.js';
import { html, raw, type SafeHtml } from '../html.js';
import { badge, dataTable, num } from '../layout.js';
import type { ViewContext, ViewResult } from '../types.js';

/** The outcome mix counts this many of the newest dispatches. @default 2000 */
export const OUTCOME_WINDOW = 2000;

const TONE: Record<string, 'ok' | 'warn' | 'bad' | 'idle'> = {
  ok: 'ok',
  rate_limited: 'warn',
  overloaded: 'warn',
  timeout: 'warn',
  validation_failed: 'warn',
  agent_error: 'warn',
  context_window: 'warn',
  quota_exhausted: 'bad',
  auth_failed: 'bad',
  config_error: 'bad',
  interrupted: 'idle',
  running: 'idle',
};

/**
 * Each provider's circuit breaker (state, why it opened, a live countdown to its reset) and the
 * outcome mix per provider over the newest OUTCOME_WINDOW dispatches, so a 100,000-dispatch
 * ledger costs one bounded read.
 */
export async function renderProvidersView(ctx: ViewContext): Promise<ViewResult> {
  const [breakers, recent] = await Promise.all([ctx.ledger.listBreakers(), ctx.ledger.recentDispatches(OUTCOME_WINDOW)]);
  const { value: data } = await redactValue({
    breakers: [...breakers].sort((a, b) => a.provider.localeCompare(b.provider)),
    mix: outcomeMix(recent),
  });

  const breakerTable =
    data.breakers.length === 0
      ? html`<p class="empty">No breaker recorded yet: every provider is closed (healthy) until one fails.</p>`
      : dataTable(
          'breakers',
          ['Provider', 'State', 'Why', num('Failures'), 'Resets in', 'Changed'],
          data.breakers.map((b) => breakerRow(b, ctx.now)),
        );

  const mixTable =
    data.mix.length === 0
      ? html`<p class="empty">No dispatch yet.</p>`
      : dataTable(
          'outcome-mix',
          ['Provider', num('Tries'), 'Outcomes', num('Median duration')],
          data.mix.map(
            (row) =>
              html`<tr data-provider="${row.provider}">
                <th scope="row">${row.provider}</th>
                <td class="num">${row.total}</td>
                <td>
                  ${bar(row)}
                  <div class="legend">${row.outcomes.map(([kind, n]) => html`<span>${badge(kind)} ${n}</span>`)}</div>
                </td>
                <td class="num">${formatDuration(row.medianMs)}</td>
              </tr>`,
          ),
        );

  const body = html`<h1>Providers</h1>
    <p class="lead">
      A provider's breaker opens on rate limits, quota, auth failures, overload and timeouts; while open, the supervisor skips it and
      injects provider-switch context into the next one.
    </p>
    <h2>Circuit breakers</h2>
    ${breakerTable}
    <h2>Outcome mix</h2>
    <p class="muted">
      Over the newest ${Math.min(recent.length, OUTCOME_WINDOW)}
      dispatches${recent.length >= OUTCOME_WINDOW ? ` (older ones are not counted)` : ''}.
    </p>
    ${mixTable}`;
  return { title: 'Providers', nav: 'providers', body };
}

function breakerRow(b: Breaker, now: number): SafeHtml {
  const waiting = b.state !== 'closed' && b.until !== undefined;
  return html`<tr data-provider="${b.provider}">
    <th scope="row">${b.provider}</th>
    <td>${badge(b.state)}</td>
    <td>
      ${b.reason ?? html`<span class="muted">—</span>`}${b.probeOwner && html`<br /><span class="muted">probe held by ${b.probeOwner}</span>`}
    </td>
    <td class="num">${b.failureCount}</td>
    <td>
      ${waiting ? html`<span data-until="${b.until}" title="${new Date(b.until ?? 0).toISOString()}">${formatDuration(Math.max(0, (b.until ?? 0) - now))}</span>` : html`<span class="muted">—</span>`}
    </td>
    <td>${formatAgo(b.updatedAt, now)}</td>
  </tr>`;
}

interface MixRow {
  provider: string;
  total: number;
  outcomes: Array<[string, number]>;
  medianMs?: number;
}

function outcomeMix(dispatches: Dispatch[]): MixRow[] {
  const byProvider = new Map<string, { counts: Map<string, number>; durations: number[] }>();
  for (const d of dispatches) {
    const entry = byProvider.get(d.provider) ?? { counts: new Map<string, number>(), durations: [] as number[] };
    const kind = d.outcome ?? d.status;
    entry.counts.set(kind, (entry.counts.get(kind) ?? 0) + 1);
    if (d.durationMs !== undefined) entry.durations.push(d.durationMs);
    byProvider.set(d.provider, entry);
  }
  return [...byProvider.entries()]
    .map(([provider, { counts, durations }]) => {
      durations.sort((a, b) => a - b);
      const outcomes = [...counts.entries()].sort((a, b) => b[1] - a[1]);
      return { provider, total: outcomes.reduce((s, [, n]) => s + n, 0), outcomes, medianMs: durations[Math.floor(durations.length / 2)] };
    })
    .sort((a, b) => b.total - a.total);
}

/** A stacked bar as SVG: attributes, not inline styles, so the strict CSP holds. */
function bar(row: MixRow): SafeHtml {
  let x = 0;
  const rects = row.outcomes.map(([kind, n]) => {
    const width = (n / row.total) * 100;
    const rect = `<rect class="${TONE[kind] ?? 'idle'}" x="${x.toFixed(2)}" y="0" width="${width.toFixed(2)}" height="10"></rect>`;
    x += width;
    return rect;
  });
  return html`<svg
    class="mix"
    viewBox="0 0 100 10"
    preserveAspectRatio="none"
    role="img"
    aria-label="${row.outcomes.map(([k, n]) => `${k} ${n}`).join(', ')}"
  >
    ${raw(rects.join(''))}
  </svg>`;
}
