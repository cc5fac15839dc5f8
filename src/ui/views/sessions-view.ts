import { type AgentSessionData, type Dispatch, type LedgerRecord, listHandoffs } from '../../ledger/index.js';
import { redactValue } from '../../redact/index.js';
import { clientLabel, formatAgo, formatDuration, formatTime } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { badge, dataTable, pager, notFound } from '../layout.js';
import type { ViewContext, ViewResult } from '../types.js';
import { handoffsTable } from './handoffs-view.js';

const PAGE = 30;

/**
 * A try `baton run` supervised (BATON_SUPERVISED): its task's attempt records what it did, so the
 * session links there. `detail` adds why the session itself holds no turn.
 */
function supervisedNote(data: AgentSessionData, detail = false): SafeHtml | '' {
  const link = data.supervised;
  if (!link) return '';
  const task = link.taskId;
  const attempt = link.attempt === undefined ? '' : `, attempt ${link.attempt}`;
  const target =
    task === undefined
      ? html`a <code>baton run</code> task`
      : html`<a href="/tasks/${encodeURIComponent(task)}">task ${task}</a>${attempt}`;
  return detail
    ? html`<p class="notice supervised">
        Run by <code>baton run</code> as ${target}: that attempt records its files and outcome, so this session holds no turn of its own.
      </p>`
    : html`<span class="badge supervised">supervised</span> ${target}. `;
}

/** Sessions of agent CLIs recorded by their hooks (`baton hooks install`), most recently active first. */
export async function renderSessionsView(ctx: ViewContext): Promise<ViewResult> {
  const cursor = ctx.url.searchParams.get('cursor') ?? undefined;
  const page = await ctx.ledger.listRecords<AgentSessionData>('agent_sessions', { limit: PAGE, cursor });
  const { value: sessions } = await redactValue(page.items);
  const body = html`<h1>Agent sessions</h1>
    <p class="lead">
      Work done directly in Claude Code, Gemini CLI and Codex CLI, recorded by Baton's hooks: files changed (measured from the workspace),
      failed commands, and one entry per turn. New sessions start with this context.
    </p>
    ${
      sessions.length === 0
        ? html`<p class="empty">
            ${cursor ? 'No more sessions.' : html`<strong>No agent session yet.</strong> <code>baton hooks install --client claude</code> records them here.`}
          </p>`
        : dataTable(
            'sessions',
            ['Session', 'What it did', 'Status', 'Last active'],
            sessions.map(
              (s: LedgerRecord<AgentSessionData>) =>
                html`<tr>
                  <td>
                    <a href="/sessions/${encodeURIComponent(s.id)}">${clientLabel(s.data.client)} ${s.data.clientSessionId.slice(0, 8)}</a>
                  </td>
                  <td>${supervisedNote(s.data)}${s.data.summary}</td>
                  <td>${badge(s.status)}</td>
                  <td>${formatAgo(s.data.lastActivityAt, ctx.now)}</td>
                </tr>`,
            ),
          )
    }
    ${pager('/sessions', cursor, page.nextCursor)}`;
  return { title: 'Agent sessions', nav: 'sessions', body };
}

/** One session: its summary, last request and reply, files, failures, and its turns. */
export async function renderSessionView(ctx: ViewContext, id: string): Promise<ViewResult> {
  const session = await ctx.ledger.getRecord<AgentSessionData>('agent_sessions', id);
  if (!session) {
    return notFound('sessions', 'Session not found', html`No agent session <code>${id}</code>. <a href="/sessions">All sessions</a>.`);
  }
  const [turns, handoffs] = await Promise.all([
    ctx.ledger.listDispatches({ taskId: id, limit: 200 }),
    listHandoffs(ctx.ledger, { from: id, limit: 10 }),
  ]);
  const { value: data } = await redactValue({
    session,
    turns: [...turns.items].sort((a, b) => a.attempt - b.attempt),
    handoffs: handoffs.items,
  });
  const s = data.session.data;
  const files = (label: string, list: string[]) => list.length > 0 && html`<p><strong>${label}:</strong> ${list.join(', ')}</p>`;
  const body = html`<p><a href="/sessions">« All sessions</a></p>
    <h1>${clientLabel(s.client)} session ${badge(data.session.status)}</h1>
    <div class="card">
      ${supervisedNote(s, true)}
      <p>${s.summary}</p>
      <p class="muted">
        ${s.clientSessionId} · ${s.workspace} · started
        ${formatTime(s.startedAt)}${s.endedAt ? ` · ended ${formatTime(s.endedAt)}` : ''}${s.model ? ` · model ${s.model}` : ''}
      </p>
      ${s.lastPrompt && html`<p><strong>Last request:</strong> ${s.lastPrompt}</p>`}
      ${s.lastReply && html`<p><strong>Last reply:</strong> ${s.lastReply}</p>`} ${files('Created', s.filesCreated)}
      ${files('Changed', s.filesUpdated)} ${files('Deleted', s.filesDeleted)}
    </div>
    ${
      s.failures.length > 0 &&
      html`<h2>Failed commands</h2>
        <ul id="failures">
          ${s.failures.map(
            (f) =>
              html`<li>
                <code>${f.command}</code> ${f.exitCode === undefined ? 'failed' : `exited ${f.exitCode}`} (turn ${f.turn},
                ${formatTime(f.at)}) ${f.error && html`<pre>${f.error}</pre>`}
              </li>`,
          )}
        </ul>`
    }
    ${
      data.handoffs.length > 0 &&
      html`<h2>Handed off</h2>
        ${handoffsTable(data.handoffs, ctx.now, 'session-handoffs')}`
    }
    <h2>Turns</h2>
    ${
      data.turns.length === 0
        ? html`<p class="empty">No turn recorded yet (a turn is recorded when it ends).</p>`
        : dataTable(
            'turns',
            ['Turn', 'Outcome', 'What it did', 'Took'],
            data.turns.map(
              (d: Dispatch) =>
                html`<tr id="turn-${d.attempt}">
                  <td>${d.attempt}</td>
                  <td>${badge(d.status)}</td>
                  <td>${d.result ?? ''}</td>
                  <td>${formatDuration(d.durationMs)}</td>
                </tr>`,
            ),
          )
    }`;
  return { title: 'Agent session', nav: 'sessions', body };
}
