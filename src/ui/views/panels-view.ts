import type { Dispatch, LedgerRecord } from '../../ledger/index.js';
import type { PanelSessionData } from '../../panel/index.js';
import { redactValue } from '../../redact/index.js';
import { formatAgo, formatDuration, formatTime } from '../format.js';
import { html } from '../html.js';
import { badge, copyBlock, dataTable, pager, notFound } from '../layout.js';
import type { ViewContext, ViewResult } from '../types.js';

const PAGE = 30;

// Panel dispatches are filed under `panel:<session id>` (panel-ledger.ts's panelTaskId). Spelled
// out here so this view does not load the panel module and its model SDKs.
const panelTaskId = (sessionId: string) => `panel:${sessionId}`;

/** Panel sessions (`baton panel` / `baton serve`), newest first, read by cursor. */
export async function renderPanelsView(ctx: ViewContext): Promise<ViewResult> {
  const cursor = ctx.url.searchParams.get('cursor') ?? undefined;
  const page = await ctx.ledger.listRecords<PanelSessionData>('sessions', { limit: PAGE, cursor });
  const panels = page.items.filter((s) => s.data.kind === 'panel');
  const { value: data } = await redactValue(panels);
  const body = html`<h1>Panels</h1>
    <p class="lead">
      Agents answering one question in turn: each later agent receives the earlier answers as context. Open a session to see each agent's
      answer and exactly what it was given.
    </p>
    ${
      data.length === 0
        ? html`<p class="empty">
            ${cursor ? 'No more panel sessions.' : html`<strong>No panel session yet.</strong> <code>baton panel QUESTION</code> records one here.`}
          </p>`
        : dataTable(
            'panels',
            ['Question', 'Agents', 'Status', 'Started'],
            data.map(
              (s: LedgerRecord<PanelSessionData>) =>
                html`<tr>
                  <td><a href="/panels/${encodeURIComponent(s.id)}">${clip(s.data.question, 140)}</a></td>
                  <td>${s.data.agents.join(' → ')}</td>
                  <td>${badge(s.status)}</td>
                  <td>${formatAgo(s.createdAt, ctx.now)}</td>
                </tr>`,
            ),
          )
    }
    ${pager('/panels', cursor, page.nextCursor)}`;
  return { title: 'Panels', nav: 'panels', body };
}

/** One panel session: the question, then each agent's context and answer in order. */
export async function renderPanelView(ctx: ViewContext, id: string): Promise<ViewResult> {
  const session = await ctx.ledger.getRecord<PanelSessionData>('sessions', id);
  if (session?.data.kind !== 'panel') {
    return notFound('panels', 'Panel not found', html`No panel session <code>${id}</code>. <a href="/panels">All panels</a>.`);
  }
  const dispatches = await ctx.ledger.listDispatches({ taskId: panelTaskId(id), limit: 200 });
  const { value: data } = await redactValue({ session, dispatches: [...dispatches.items].sort((a, b) => a.seq - b.seq) });
  const modes = new Map((data.session.data.answers ?? []).map((a) => [a.dispatchId, a.contextMode]));
  const body = html`<p><a href="/panels">« All panels</a></p>
    <h1>Panel ${badge(data.session.status)}</h1>
    <div class="card">
      <h2>Question</h2>
      <pre id="question">${data.session.data.question}</pre>
      <p class="muted">
        Agents in order: ${data.session.data.agents.join(' → ')} · earlier answers passed as ${data.session.data.attribution} messages ·
        started
        ${formatTime(data.session.createdAt)}${data.session.data.tokensUsed !== undefined ? ` · ${data.session.data.tokensUsed} tokens` : ''}
      </p>
    </div>
    ${data.dispatches.map(
      (d: Dispatch, i: number) =>
        html`<article class="try" id="agent-${d.id}" aria-label="Agent ${d.provider}">
          <div class="try-head">
            <span class="who">${i + 1}. ${d.provider}</span> ${badge(d.outcome ?? d.status)}
            ${d.model && html`<span class="muted">model ${d.model}</span>`}
            <span class="muted">${formatDuration(d.durationMs)}</span>
            ${(d.tokensIn !== undefined || d.tokensOut !== undefined) && html`<span class="muted">${d.tokensIn ?? '?'} in / ${d.tokensOut ?? '?'} out tokens</span>`}
            ${modes.get(d.id) && html`<span class="muted">context: ${modes.get(d.id)}</span>`}
          </div>
          <div class="seam">
            <div>
              ${
                d.injectedContext
                  ? copyBlock(`panel-ctx-${d.id}`, 'Context it received', d.injectedContext)
                  : html`<h4>Context it received</h4>
                      <p class="muted">${i === 0 ? 'None: the first agent sees only the question.' : 'None recorded.'}</p>`
              }
            </div>
            <div>${copyBlock(`panel-answer-${d.id}`, d.outcome === 'ok' || !d.outcome ? 'Answer' : 'Error', d.result ?? '')}</div>
          </div>
        </article>`,
    )}
    ${data.dispatches.length === 0 && html`<p class="empty">No agent has answered yet.</p>`}`;
  return { title: 'Panel', nav: 'panels', body };
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
