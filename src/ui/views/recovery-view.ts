import { errorMessage, isBatonError } from '../../errors/index.js';
import { maskSecretsSync, redactValue } from '../../redact/index.js';
import {
  compareSnapshots,
  type ContextDelta,
  DEFAULT_COMMIT_LIMIT,
  DEFAULT_DISPATCH_LIMIT,
  gatherSnapshot,
  listSnapshots,
  loadSnapshot,
  type RenderedContext,
  renderContext,
  type SnapshotIndexData,
} from '../../refresh/index.js';
import type { LedgerRecord } from '../../ledger/index.js';
import { formatTime } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { copyBlock, dataTable, num } from '../layout.js';
import type { ViewContext, ViewResult } from '../types.js';

const SNAPSHOT_LIST = 30;
const SUGGESTIONS = 200;

/**
 * Session recovery as an agent would get it from `refresh_context`: the narrative and the
 * continuation prompt for a task, each with a copy button, plus saved snapshots and the delta
 * between two. It calls the refresh module's gather and render steps directly rather than
 * `refreshContext`, because that one also records the call (session state, audit) and this view
 * must never write to the ledger.
 */
export async function renderRecoveryView(ctx: ViewContext): Promise<ViewResult> {
  const taskId = ctx.url.searchParams.get('task')?.trim() || undefined;
  const a = ctx.url.searchParams.get('a') ?? undefined;
  const b = ctx.url.searchParams.get('b') ?? undefined;
  const [recovered, snapshots, suggestions] = await Promise.all([
    recover(ctx, taskId).then(
      (r) => ({ ok: true as const, r }),
      (error: unknown) => ({
        ok: false as const,
        message: maskSecretsSync(errorMessage(error)).text,
        notFound: isBatonError(error, 'NOT_FOUND'),
      }),
    ),
    listSnapshots(ctx.ledger, { taskId, limit: SNAPSHOT_LIST }),
    ctx.ledger.recentDispatches(SUGGESTIONS).then((ds) => [...new Set(ds.map((d) => d.taskId).filter((id) => !id.startsWith('panel:')))]),
  ]);
  const delta = a && b ? await compare(ctx, snapshots.items, a, b) : undefined;

  const form = html`<form class="search" method="get" action="/recovery" aria-label="Choose a task">
    <label for="task">Task id</label>
    <input id="task" name="task" type="text" list="task-ids" value="${taskId ?? ''}" placeholder="most recently active" />
    <datalist id="task-ids">${suggestions.map((id) => html`<option value="${id}"></option>`)}</datalist>
    <button type="submit">Recover</button>
  </form>`;

  const result = recovered.ok
    ? html`<p class="muted">
          Focus:
          ${recovered.r.taskId ? html`task <a href="/tasks/${encodeURIComponent(recovered.r.taskId)}"><code>${recovered.r.taskId}</code></a>` : 'no task in the ledger yet'}
          · ${recovered.r.rendered.metadata.token_estimate} tokens (narrative format, cap ${recovered.r.rendered.metadata.token_budget}) ·
          ${recovered.r.rendered.metadata.redactions} secret(s) masked
        </p>
        ${
          recovered.r.rendered.metadata.warnings.length > 0 &&
          html`<ul class="muted">
            ${recovered.r.rendered.metadata.warnings.map((w) => html`<li>${w}</li>`)}
          </ul>`
        }
        <div class="seam">
          <div class="card">${copyBlock('narrative', 'Narrative (refresh_context, format narrative)', recovered.r.rendered.text)}</div>
          <div class="card">${copyBlock('continuation', 'Continuation prompt', recovered.r.rendered.continuationPrompt ?? '')}</div>
        </div>`
    : html`<p class="notice">${recovered.notFound ? 'Unknown task: ' : 'Could not build the context: '}${recovered.message}</p>`;

  const body = html`<h1>Session recovery</h1>
    <p class="lead">
      What a new session, a handoff or a timed-out agent gets from <code>baton refresh</code> / the <code>refresh_context</code> MCP tool
      for a task: a narrative and a prompt to continue from. Copy either into the next session.
    </p>
    ${form} ${result}
    <h2>Snapshots</h2>
    ${snapshotSection(snapshots.items, a, b, taskId)} ${delta}`;
  return { title: 'Session recovery', nav: 'recovery', body };
}

async function recover(ctx: ViewContext, taskId: string | undefined): Promise<{ rendered: RenderedContext; taskId?: string }> {
  const { snapshot: raw, gitCache } = await gatherSnapshot({
    workspace: ctx.workspace,
    ledger: ctx.ledger,
    gitCache: ctx.gitCache,
    taskId,
    includeGit: true,
    includeGitDiff: false,
    includeTechDebt: true,
    includeDispatches: true,
    includeTaskArtifacts: false,
    includeArtifactContents: false,
    includeResearch: false,
    dispatchLimit: DEFAULT_DISPATCH_LIMIT,
    commitLimit: DEFAULT_COMMIT_LIMIT,
    env: process.env,
    now: ctx.now,
  });
  const { value: snapshot, count } = await redactValue(raw);
  const rendered = renderContext(snapshot, {
    format: 'narrative',
    now: ctx.now,
    metadata: {
      generated_at: new Date(ctx.now).toISOString(),
      format: 'narrative',
      sources: snapshot.sources,
      warnings: snapshot.warnings,
      redactions: count,
      cache: { git: gitCache, hits: ctx.gitCache.hits, misses: ctx.gitCache.misses },
    },
  });
  return { rendered, taskId: snapshot.task?.id };
}

function snapshotSection(
  items: Array<LedgerRecord<SnapshotIndexData>>,
  a: string | undefined,
  b: string | undefined,
  taskId: string | undefined,
): SafeHtml {
  if (items.length === 0) {
    return html`<p class="empty">
      No saved snapshot${taskId ? ' for this task' : ''}. <code>baton refresh --save-snapshot</code> (or <code>refresh_context</code> with
      <code>save_snapshot</code>) saves one; pick two here to see what changed between them.
    </p>`;
  }
  const options = (selected: string | undefined) =>
    items.map(
      (s) =>
        html`<option value="${s.id}" ${s.id === selected ? html` selected` : ''}>
          ${s.id} · ${formatTime(s.data.generatedAt)}${s.taskId ? ` · ${s.taskId}` : ''}
        </option>`,
    );
  const older = a ?? items[1]?.id ?? items[0]?.id;
  const newer = b ?? items[0]?.id;
  return html`${dataTable(
      'snapshots',
      ['Snapshot', 'Taken', 'Task', 'Format', num('Tokens'), 'HEAD'],
      items.map(
        (s) =>
          html`<tr>
            <td><code>${s.id}</code></td>
            <td>${formatTime(s.data.generatedAt)}</td>
            <td>${s.taskId ?? '—'}</td>
            <td>${s.data.format}</td>
            <td class="num">${s.data.tokens}</td>
            <td><code>${(s.data.head ?? '').slice(0, 10) || '—'}</code></td>
          </tr>`,
      ),
    )}
    <form class="search" method="get" action="/recovery" aria-label="Compare two snapshots">
      ${taskId && html`<input type="hidden" name="task" value="${taskId}" />`}
      <label for="snap-a">From</label
      ><select id="snap-a" name="a">
        ${options(older)}
      </select>
      <label for="snap-b">to</label
      ><select id="snap-b" name="b">
        ${options(newer)}
      </select>
      <button type="submit">Show what changed</button>
    </form>`;
}

async function compare(ctx: ViewContext, items: Array<LedgerRecord<SnapshotIndexData>>, a: string, b: string): Promise<SafeHtml> {
  const workspaceOf = (id: string) => items.find((s) => s.id === id)?.data.workspace ?? ctx.workspace;
  try {
    const [before, after] = await Promise.all([loadSnapshot(workspaceOf(a), ctx.ledger, a), loadSnapshot(workspaceOf(b), ctx.ledger, b)]);
    const { value: delta } = await redactValue(compareSnapshots(before, after, a, a));
    return renderDelta(delta, b);
  } catch (error) {
    return html`<p class="notice">Could not compare ${a} and ${b}: ${maskSecretsSync(errorMessage(error)).text}</p>`;
  }
}

function renderDelta(delta: ContextDelta, to: string): SafeHtml {
  const list = (title: string, entries: ContextDelta['added']) =>
    html`<div class="card">
      <h3>${title} <span class="muted">(${entries.length})</span></h3>
      ${
        entries.length === 0
          ? html`<p class="muted">None.</p>`
          : html`<ul class="plain">
              ${entries.map(
                (e) =>
                  html`<li>
                    <code>${e.key}</code>${e.changed && html` <span class="muted">changed: ${e.changed.join(', ')}</span>`}
                    <pre>${JSON.stringify(e.value, null, 1)}</pre>
                  </li>`,
              )}
            </ul>`
      }
    </div>`;
  return html`<section id="delta" aria-labelledby="delta-h">
    <h2 id="delta-h">From <code>${delta.since}</code> to <code>${to}</code></h2>
    ${list('Added', delta.added)}${list('Updated', delta.updated)}${list('Removed', delta.removed)}
  </section>`;
}
