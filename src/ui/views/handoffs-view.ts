import { HANDOFF_AUDIT_STATUS, type HandoffAuditRecord, listHandoffs } from '../../ledger/index.js';
import { redactValue } from '../../redact/index.js';
import { clientLabel, formatAgo, formatTime } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { copyBlock, dataTable, pager, notFound } from '../layout.js';
import type { ViewContext, ViewResult } from '../types.js';

const PAGE = 30;

/** The source client: recorded since handoffs carry it, else the prefix of the session id (`codex-…`). */
function sourceClient(record: HandoffAuditRecord): string | undefined {
  return record.data.fromClient ?? /^(claude|codex|gemini|copilot)-/.exec(record.data.from)?.[1];
}

function sessionLink(record: HandoffAuditRecord): SafeHtml {
  return html`<a href="/sessions/${encodeURIComponent(record.data.from)}">${record.data.from}</a>`;
}

function outcome(record: HandoffAuditRecord): SafeHtml {
  return record.data.started ? html`<span class="badge running">started</span>` : html`<span class="badge pending">printed</span>`;
}

/** A table of handoffs: when, from which session and client, to which CLI, budget and tokens, printed or started. */
export function handoffsTable(records: readonly HandoffAuditRecord[], now: number, id = 'handoffs'): SafeHtml {
  return dataTable(
    id,
    ['When', 'From', 'To', 'Tokens / budget', 'How'],
    records.map(
      (r) =>
        html`<tr data-handoff="${r.id}">
          <td><a href="/handoffs/${encodeURIComponent(r.id)}" title="${formatTime(r.data.at)}">${formatAgo(r.data.at, now)}</a></td>
          <td>${clientLabel(sourceClient(r))} · ${sessionLink(r)}</td>
          <td>${clientLabel(r.data.to)}</td>
          <td>${r.data.tokens} / ${r.data.budget}</td>
          <td>${outcome(r)}</td>
        </tr>`,
    ),
  );
}

/** Every `baton handoff`, newest first: from which session to which CLI, how big, printed or started. */
export async function renderHandoffsView(ctx: ViewContext): Promise<ViewResult> {
  const cursor = ctx.url.searchParams.get('cursor') ?? undefined;
  const page = await listHandoffs(ctx.ledger, { limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
  const { value: handoffs } = await redactValue(page.items);
  const body = html`<h1>Handoffs</h1>
    <p class="lead">
      Each <code>baton handoff</code>: the agent session it handed on, the CLI it went to, its size against the budget, and whether the
      target CLI was started with it or it was printed. A handoff opens on its text.
    </p>
    ${
      handoffs.length === 0
        ? html`<p class="empty">
            ${cursor ? 'No more handoffs.' : html`<strong>No handoff yet.</strong> <code>baton handoff --to codex</code> records one here.`}
          </p>`
        : handoffsTable(handoffs, ctx.now)
    }
    ${pager('/handoffs', cursor, page.nextCursor)}`;
  return { title: 'Handoffs', nav: 'handoffs', body };
}

/** One handoff: where it came from and went, its size, and the text the next CLI was given. */
export async function renderHandoffView(ctx: ViewContext, id: string): Promise<ViewResult> {
  const found = await ctx.ledger.getRecord<HandoffAuditRecord['data']>('audit', id);
  if (!found || found.status !== HANDOFF_AUDIT_STATUS) {
    return notFound('handoffs', 'Handoff not found', html`No handoff <code>${id}</code>. <a href="/handoffs">All handoffs</a>.`);
  }
  const { value: record } = await redactValue(found);
  const d = record.data;
  const body = html`<p><a href="/handoffs">« All handoffs</a></p>
    <h1>Handoff to ${clientLabel(d.to)} ${outcome(record)}</h1>
    <div class="card">
      <p>From ${clientLabel(sourceClient(record))} session ${sessionLink(record)}, ${formatTime(d.at)}.</p>
      <p class="muted">${d.tokens} tokens of a ${d.budget}-token budget · ${d.workspace}</p>
    </div>
    ${
      d.text === undefined
        ? html`<p class="empty">This handoff was recorded before Baton kept the text of handoffs.</p>`
        : copyBlock('handoff-text', 'The handoff', d.text)
    }`;
  return { title: 'Handoff', nav: 'handoffs', body };
}
