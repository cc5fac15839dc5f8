import { errorMessage } from '../../errors/index.js';
import { formatAgo, formatDuration } from '../format.js';
import { html } from '../html.js';
import { dataTable, num } from '../layout.js';
import type { ViewContext, ViewResult } from '../types.js';
import { maskSecretsSync } from '../../redact/index.js';

/**
 * The Queue view: job counts by state and live workers of the BullMQ queue (`baton worker`), and a
 * link to the mounted dashboard. Without a QueuePanel (the ledger is not Redis) it says so plainly
 * instead of showing made-up numbers.
 */
export async function renderQueueView(ctx: ViewContext): Promise<ViewResult> {
  const queue = ctx.queue;
  if (!queue) {
    return {
      title: 'Queue',
      nav: 'queue',
      body: html`<h1>Queue</h1>
        <div class="empty" id="queue-empty" role="note">
          <p><strong>No job queue is connected to this view.</strong></p>
          <p>
            The job queue lives in Redis: with a Redis ledger (<code>baton run --queue</code> and <code>baton worker</code> on many machines
            sharing one Redis/DragonflyDB), this view shows job counts by state and the live workers, and links to a read-only queue
            dashboard at <code>/queue/dashboard/</code>. Tasks on this ledger run through <code>baton run</code> on one machine.
          </p>
        </div>`,
    };
  }
  let summary: Awaited<ReturnType<NonNullable<typeof queue.summary>>> | undefined;
  let failure: string | undefined;
  try {
    summary = await queue.summary?.();
  } catch (error) {
    failure = maskSecretsSync(errorMessage(error)).text;
  }
  return {
    title: 'Queue',
    nav: 'queue',
    body: html`<h1>Queue <code>${queue.name}</code></h1>
      ${failure && html`<p class="notice">Could not read the queue: ${failure}</p>`}
      ${
        summary?.pausedForMs
          ? html`<p class="notice" id="queue-paused">
              Paused ${formatDuration(summary.pausedForMs)} more: every provider's circuit breaker is open.
            </p>`
          : ''
      }
      ${
        summary &&
        html`${dataTable(
            'queue-counts',
            ['State', num('Jobs')],
            Object.entries(summary.counts).map(
              ([state, n]) =>
                html`<tr>
                  <th scope="row">${state}</th>
                  <td class="num">${n}</td>
                </tr>`,
            ),
          )}
          <h2>Workers</h2>
          ${
            summary.workers.length === 0
              ? html`<p class="muted" id="queue-workers-none">No live worker (start one with <code>baton worker</code>).</p>`
              : html`<ul class="plain" id="queue-workers">
                  ${summary.workers.map(
                    (w) =>
                      html`<li>
                        <code>${w.id}</code>
                        <span class="muted">${w.lastSeenAt === undefined ? 'connected now' : formatAgo(w.lastSeenAt, ctx.now)}</span>
                      </li>`,
                  )}
                </ul>`
          }`
      }
      ${queue.handle && html`<p><a class="button" id="queue-dashboard-link" href="/queue/dashboard/">Open the queue dashboard (read-only) »</a></p>`}
      ${!queue.handle && queue.dashboardHint && html`<p class="muted" id="queue-dashboard-hint">${queue.dashboardHint}</p>`}`,
  };
}
