import { type Dispatch, type Task, TASK_STATUSES, type TaskStatus } from '../../ledger/index.js';
import { redactValue } from '../../redact/index.js';
import { formatAgo, statusLabel } from '../format.js';
import { html } from '../html.js';
import { badge, dataTable, num } from '../layout.js';
import type { ViewContext, ViewResult } from '../types.js';

/** Rows per page. @default 50 */
export const TASK_PAGE_SIZE = 50;
/** A search shows at most this many matches. @default 100 */
export const MAX_SEARCH_MATCHES = 100;
const SEARCH_SCAN_PAGE = 500;
const RECENT_DISPATCHES = 12;

/**
 * Tasks by status with counts, a search over id and title, and a page of tasks read with the
 * ledger's cursor pagination (so a 10,000-task ledger costs one page of rows), plus the newest
 * dispatches across the run.
 */
export async function renderTasksView(ctx: ViewContext): Promise<ViewResult> {
  const { ledger, url } = ctx;
  const status = parseStatus(url.searchParams.get('status'));
  const q = (url.searchParams.get('q') ?? '').trim();
  const cursor = url.searchParams.get('cursor') ?? undefined;

  const [counts, listing, recent] = await Promise.all([
    ledger.countTasksByStatus(),
    q ? searchTasks(ctx, q, status) : ledger.listTasks({ status, limit: TASK_PAGE_SIZE, cursor }),
    ledger.recentDispatches(RECENT_DISPATCHES),
  ]);
  const lastTries = await Promise.all(listing.items.map((t) => ledger.lastDispatches(t.id, 1).then((d) => d[0])));
  const { value: data } = await redactValue({ tasks: listing.items, lastTries, recent });
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const link = (params: Record<string, string | undefined>) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v) search.set(k, v);
    const s = search.toString();
    return s ? `/?${s}` : '/';
  };

  const tabs = html`<ul class="tabs" aria-label="Filter by status">
    <li>
      <a href="${link({ q })}" aria-current="${status ? 'false' : 'true'}">All <span class="count">${total}</span></a>
    </li>
    ${TASK_STATUSES.map(
      (s) =>
        html`<li>
          <a href="${link({ status: s, q })}" aria-current="${status === s ? 'true' : 'false'}" data-status="${s}"
            >${statusLabel(s)} <span class="count">${counts[s]}</span></a
          >
        </li>`,
    )}
  </ul>`;
  const search = html`<form class="search" role="search" method="get" action="/">
    <label for="q">Search id or title</label>
    <input id="q" name="q" type="search" value="${q}" placeholder="e.g. docs" autocomplete="off" />
    ${status && html`<input type="hidden" name="status" value="${status}" />`}
    <button type="submit">Search</button>
    ${q && html`<a href="${link({ status })}">Clear</a>`}
  </form>`;

  const rows = data.tasks.map((task, i) => taskRow(task, data.lastTries[i], ctx.now));
  const table =
    rows.length === 0
      ? html`<p class="empty">
          ${q ? html`No task matches <strong>${q}</strong>.` : total === 0 ? html`<strong>No tasks yet.</strong> Start one with <code>baton run PLAN</code>; this page updates by itself.` : html`No ${statusLabel(status ?? '')} tasks.`}
        </p>`
      : dataTable(
          'tasks',
          ['Task', 'Status', num('Priority'), 'Depends on', 'Last try', 'Updated'],
          rows,
          caption(status, q, rows.length, total, 'nextCursor' in listing && Boolean(listing.nextCursor)),
        );
  const pager = html`<nav class="pager" aria-label="Pages">
    ${cursor && html`<a href="${link({ status, q })}">« First page</a>`}
    ${listing.nextCursor && html`<a class="button secondary" id="next-page" href="${link({ status, q, cursor: listing.nextCursor })}">Next ${TASK_PAGE_SIZE} »</a>`}
  </nav>`;

  const body = html`<h1>Tasks</h1>
    <p class="lead">
      Every task in the ledger by status. Open a task to see each attempt, each provider try and the exact context injected at each seam.
    </p>
    <div class="layout">
      <section aria-label="Task list">${tabs}${search}${table}${pager}</section>
      <aside class="card" aria-labelledby="recent-h">
        <h2 id="recent-h">Latest dispatches</h2>
        ${
          data.recent.length === 0
            ? html`<p class="muted">None yet.</p>`
            : html`<ul class="plain" id="recent-dispatches">
                ${data.recent.map((d) => recentItem(d, ctx.now))}
              </ul>`
        }
      </aside>
    </div>`;
  return { title: 'Tasks', nav: 'tasks', body };
}

function taskRow(task: Task, last: Dispatch | undefined, now: number) {
  return html`<tr data-task="${task.id}">
    <td>
      <a href="/tasks/${encodeURIComponent(task.id)}"><code>${task.id}</code></a
      ><br />${task.title}
    </td>
    <td>${badge(task.status)}</td>
    <td class="num">${task.priority}</td>
    <td>
      ${task.dependsOn.length === 0 ? html`<span class="muted">—</span>` : task.dependsOn.map((d, i) => html`${i > 0 && ', '}<a href="/tasks/${encodeURIComponent(d)}"><code>${d}</code></a>`)}
    </td>
    <td>
      ${last ? html`${last.provider} ${badge(last.outcome ?? last.status)}<br /><span class="muted">attempt ${last.attempt}</span>` : html`<span class="muted">not run</span>`}
    </td>
    <td>${formatAgo(task.updatedAt, now)}</td>
  </tr>`;
}

/** Where a dispatch is shown: a panel answer in its panel, an agent CLI session's turn in its session, a try in its task. */
function dispatchHref(d: Dispatch, panel: string | undefined): string {
  if (panel) return `/panels/${encodeURIComponent(panel)}#agent-${d.id}`;
  // A turn of an agent CLI session (the hooks): its task id is the session's id.
  if (d.mode === 'interactive') return `/sessions/${encodeURIComponent(d.taskId)}#turn-${d.attempt}`;
  return `/tasks/${encodeURIComponent(d.taskId)}#try-${d.id}`;
}

function recentItem(d: Dispatch, now: number) {
  // Panel answers are filed under a synthetic task id `panel:<session>`; they belong to the panel view.
  const panel = d.taskId.startsWith('panel:') ? d.taskId.slice('panel:'.length) : undefined;
  const href = dispatchHref(d, panel);
  return html`<li data-dispatch="${d.id}">
    <a href="${href}">${panel ? 'panel ' : ''}<code>${panel ?? d.taskId}</code></a
    >${panel ? '' : ` · attempt ${d.attempt}`}<br />${d.provider}${d.mode === 'helper' ? ' (helper)' : ''} ${badge(d.outcome ?? d.status)}
    <span class="muted">${formatAgo(d.startedAt, now)}</span>
  </li>`;
}

function caption(status: TaskStatus | undefined, q: string, shown: number, total: number, more: boolean): string {
  if (q)
    return `${shown}${shown >= MAX_SEARCH_MATCHES ? '+' : ''} match${shown === 1 ? '' : 'es'} for “${q}”${shown >= MAX_SEARCH_MATCHES ? ' (first ones shown; refine the search)' : ''}`;
  return `${shown} ${status ? statusLabel(status) : ''} task${shown === 1 ? '' : 's'} on this page${more ? ', more on the next' : ''} · ${total} in the ledger, oldest first`;
}

function parseStatus(value: string | null): TaskStatus | undefined {
  return value && (TASK_STATUSES as readonly string[]).includes(value) ? (value as TaskStatus) : undefined;
}

/**
 * Case-insensitive match on id and title. The ledger has no text index, so this walks the
 * cursor pages (500 rows each) and stops at MAX_SEARCH_MATCHES; on SQLite a 10,000-task scan
 * takes tens of milliseconds.
 */
async function searchTasks(ctx: ViewContext, q: string, status: TaskStatus | undefined): Promise<{ items: Task[]; nextCursor?: string }> {
  const needle = q.toLowerCase();
  const items: Task[] = [];
  let cursor: string | undefined;
  do {
    const page = await ctx.ledger.listTasks({ status, limit: SEARCH_SCAN_PAGE, cursor });
    for (const task of page.items) {
      if (task.id.toLowerCase().includes(needle) || task.title.toLowerCase().includes(needle)) items.push(task);
      if (items.length >= MAX_SEARCH_MATCHES) return { items };
    }
    cursor = page.nextCursor;
  } while (cursor);
  return { items };
}
