import { errorMessage } from '../../errors/index.js';
import { formatAgo } from '../format.js';
import { html } from '../html.js';
import type { ViewContext, ViewResult } from '../types.js';

/**
 * The Queue slot. The BullMQ scale-out (issue 13) is built separately; until a QueuePanel is
 * passed to startUiServer this view says so plainly instead of showing made-up numbers.
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
            Tasks here run through <code>baton run</code> on one machine. When Baton's BullMQ queue (<code>baton worker</code> on many
            machines sharing one Redis/DragonflyDB) is in use, this slot shows job counts by state and the workers seen, and links to a
            queue dashboard mounted at <code>/queue/dashboard/</code>.
          </p>
        </div>`,
    };
  }
  let summary: Awaited<ReturnType<NonNullable<typeof queue.summary>>> | undefined;
  let failure: string | undefined;
  try {
    summary = await queue.summary?.();
  } catch (error) {
    failure = errorMessage(error);
  }
  return {
    title: 'Queue',
    nav: 'queue',
    body: html`<h1>Queue <code>${queue.name}</code></h1>
      ${failure && html`<p class="notice">Could not read the queue: ${failure}</p>`}
      ${
        summary &&
        html`<table id="queue-counts">
            <thead>
              <tr>
                <th scope="col">State</th>
                <th scope="col" class="num">Jobs</th>
              </tr>
            </thead>
            <tbody>
              ${Object.entries(summary.counts).map(
                ([state, n]) =>
                  html`<tr>
                    <th scope="row">${state}</th>
                    <td class="num">${n}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
          <h2>Workers</h2>
          ${
            summary.workers.length === 0
              ? html`<p class="muted">None seen.</p>`
              : html`<ul class="plain">
                  ${summary.workers.map((w) => html`<li><code>${w.id}</code> <span class="muted">${formatAgo(w.lastSeenAt, ctx.now)}</span></li>`)}
                </ul>`
          }`
      }
      ${queue.handle && html`<p><a class="button" href="/queue/dashboard/">Open the queue dashboard »</a></p>`}`,
  };
}
