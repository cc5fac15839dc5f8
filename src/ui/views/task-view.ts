import type { Dispatch, Ledger, Task } from '../../ledger/index.js';
import { redactValue } from '../../redact/index.js';
import { formatDuration, formatTime, SEAM_LABELS } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { badge, copyBlock, notFound } from '../layout.js';
import type { ViewContext, ViewResult } from '../types.js';

/** A task's timeline reads at most this many dispatches. @default 1000 */
export const MAX_TIMELINE_DISPATCHES = 1000;
const PAGE = 200;

/**
 * One task: its definition, dependencies, and a timeline of every attempt and provider try in
 * order. Each try that received pre-context shows the exact block (as stored in the ledger,
 * masked for secrets) beside what the previous try did, so a reader sees why the block says what
 * it says; the full prompt sits under it.
 */
export async function renderTaskView(ctx: ViewContext, id: string): Promise<ViewResult> {
  const task = await ctx.ledger.getTask(id);
  if (!task) {
    return notFound('tasks', 'Task not found', html`The ledger has no task <code>${id}</code>. <a href="/">Back to the task list</a>.`);
  }
  const [deps, dispatches] = await Promise.all([
    Promise.all(task.dependsOn.map(async (dep) => ({ id: dep, task: await ctx.ledger.getTask(dep) }))),
    readTimeline(ctx.ledger, id),
  ]);
  const { value: data } = await redactValue({ task, deps, dispatches });
  const attempts = groupByAttempt(data.dispatches);
  // What a block reacts to is the task's last own try before it (a provider switch: the try that
  // just failed; a retry: the previous attempt's validated try; a helper: the try it verifies).
  const previous = new Map<string, Dispatch>();
  let lastOwn: Dispatch | undefined;
  for (const d of data.dispatches) {
    if (lastOwn) previous.set(d.id, lastOwn);
    if (d.mode !== 'helper') lastOwn = d;
  }

  const body = html`<p><a href="/">« All tasks</a></p>
    <h1><code>${data.task.id}</code> ${data.task.title} ${badge(data.task.status)}</h1>
    ${data.task.blockReason && html`<p class="notice"><strong>Blocked:</strong> ${data.task.blockReason}</p>`}
    ${data.task.resultSummary && html`<p><strong>Result:</strong> ${data.task.resultSummary}</p>`}
    <div class="layout">
      <section aria-labelledby="timeline-h">
        <h2 id="timeline-h">Timeline</h2>
        ${
          attempts.length === 0
            ? html`<p class="empty">No attempt yet: the task has not been dispatched.</p>`
            : attempts.map(
                ([attempt, tries]) =>
                  html`<section class="attempt" aria-labelledby="attempt-${attempt}">
                    <h3 id="attempt-${attempt}">
                      Attempt ${attempt} <span class="muted">· ${tries.length} ${tries.length === 1 ? 'try' : 'tries'}</span>
                    </h3>
                    ${tries.map((d) => renderTry(d, previous.get(d.id)))}
                  </section>`,
              )
        }
      </section>
      <aside aria-label="Task details">
        <div class="card">
          <h2>Details</h2>
          <dl class="meta">
            <dt>Status</dt>
            <dd>${badge(data.task.status)}</dd>
            <dt>Priority</dt>
            <dd>${data.task.priority}</dd>
            ${
              data.task.difficulty &&
              html`<dt>Difficulty</dt>
                <dd>${data.task.difficulty}</dd>`
            }
            ${
              data.task.mode &&
              html`<dt>Mode</dt>
                <dd>${data.task.mode}</dd>`
            }
            <dt>Created</dt>
            <dd>${formatTime(data.task.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>${formatTime(data.task.updatedAt)}</dd>
          </dl>
          <p><a href="/recovery?task=${encodeURIComponent(data.task.id)}">Session recovery for this task »</a></p>
        </div>
        <div class="card">
          <h2>Depends on</h2>
          ${
            data.deps.length === 0
              ? html`<p class="muted">Nothing.</p>`
              : html`<ul class="plain" id="depends-on">
                  ${data.deps.map(
                    (d) =>
                      html`<li>
                        <a href="/tasks/${encodeURIComponent(d.id)}"><code>${d.id}</code></a>
                        ${d.task ? badge(d.task.status) : html`<span class="muted">(not in the ledger)</span>`}
                      </li>`,
                  )}
                </ul>`
          }
        </div>
        <div class="card">
          <h2>Acceptance criteria</h2>
          ${criteria(data.task)}
        </div>
        <div class="card">
          <h2>Instructions</h2>
          <pre>${data.task.instructions || '—'}</pre>
        </div>
      </aside>
    </div>`;
  return { title: `${data.task.id} · ${data.task.title}`, nav: 'tasks', body };
}

function renderTry(d: Dispatch, before: Dispatch | undefined): SafeHtml {
  const helper = d.mode === 'helper';
  const seam = d.contextType ? (SEAM_LABELS[d.contextType] ?? d.contextType) : undefined;
  return html`<article
    class="try"
    id="try-${d.id}"
    aria-label="${helper ? 'Helper agent' : 'Provider'} ${d.provider}, ${d.outcome ?? d.status}"
  >
    <div class="try-head">
      <span class="who">${d.provider}</span>${helper && html` <span class="badge helper">helper agent</span>`}
      ${badge(d.outcome ?? d.status)}
      <span class="muted">${formatDuration(d.durationMs)}</span>
      ${d.model && html`<span class="muted">model ${d.model}</span>`}
      ${(d.tokensIn !== undefined || d.tokensOut !== undefined) && html`<span class="muted">${d.tokensIn ?? '?'} in / ${d.tokensOut ?? '?'} out tokens</span>`}
      ${d.exitCode !== undefined && html`<span class="muted">exit ${d.exitCode}</span>`}
      <span class="muted">${formatTime(d.startedAt)}</span>
      ${d.claimedBy && html`<span class="muted" title="the process that ran it">by ${d.claimedBy}</span>`}
    </div>
    ${files(d)}
    ${
      d.validationErrors.length > 0 &&
      html`<ul class="errors" aria-label="Validation errors">
        ${d.validationErrors.map((e) => html`<li>${e}</li>`)}
      </ul>`
    }
    ${d.result && html`<p><strong>${helper ? 'Helper answer' : 'Result'}:</strong> <span class="mono">${d.result}</span></p>`}
    ${
      d.injectedContext
        ? html`<div class="seam">
            <div>
              <h4>What the previous try did</h4>
              ${before ? summary(before) : html`<p class="muted">Nothing before this try.</p>`}
            </div>
            <div>${copyBlock(`ctx-${d.id}`, `Injected context · ${seam ?? 'pre-context'}`, d.injectedContext)}</div>
          </div>`
        : html`<p class="muted">No pre-context injected${d.attempt === 1 && !helper ? ' (first try of the task)' : ''}.</p>`
    }
    <details id="prompt-${d.id}">
      <summary>Full prompt${d.promptDigest ? html` <span class="muted">(sha256 ${d.promptDigest})</span>` : ''}</summary>
      ${d.promptPreview ? copyBlock(`prompt-text-${d.id}`, 'Prompt sent to the agent', d.promptPreview) : html`<p class="muted">The prompt text was not recorded for this try (written by an older Baton); its digest identifies it.</p>`}
    </details>
  </article>`;
}

function summary(d: Dispatch): SafeHtml {
  return html`<div class="card">
    <p>
      <strong>${d.provider}</strong>${d.mode === 'helper' ? ' (helper)' : ''}, attempt ${d.attempt}: ${badge(d.outcome ?? d.status)}
      <span class="muted">${formatDuration(d.durationMs)}</span>
    </p>
    ${files(d)}
    ${
      d.validationErrors.length > 0 &&
      html`<ul class="errors">
        ${d.validationErrors.map((e) => html`<li>${e}</li>`)}
      </ul>`
    }
    ${d.result && html`<p class="mono">${d.result}</p>`}
  </div>`;
}

function files(d: Dispatch): SafeHtml {
  const parts: SafeHtml[] = [];
  if (d.filesCreated.length) parts.push(html`<div class="files">Created: ${d.filesCreated.map((f) => html`<code>${f}</code>`)}</div>`);
  if (d.filesUpdated.length) parts.push(html`<div class="files">Updated: ${d.filesUpdated.map((f) => html`<code>${f}</code>`)}</div>`);
  if (d.filesDeleted.length) parts.push(html`<div class="files">Deleted: ${d.filesDeleted.map((f) => html`<code>${f}</code>`)}</div>`);
  if (parts.length === 0 && d.status !== 'running') return html`<div class="files muted">No files changed.</div>`;
  return html`${parts}`;
}

function criteria(task: Task): SafeHtml {
  if (task.acceptanceCriteria.length === 0) return html`<p class="muted">None.</p>`;
  return html`<ol>
    ${task.acceptanceCriteria.map(
      (c) =>
        html`<li>
          ${c.description}${c.check ? html`<br /><code>${c.check}</code>` : html`<br /><span class="muted">no check command (the helper agent writes one)</span>`}
        </li>`,
    )}
  </ol>`;
}

/** Every dispatch of the task, oldest first, read newest-first by cursor and reversed. */
async function readTimeline(ledger: Ledger, taskId: string): Promise<Dispatch[]> {
  const out: Dispatch[] = [];
  let cursor: string | undefined;
  do {
    const page = await ledger.listDispatches({ taskId, limit: PAGE, cursor });
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && out.length < MAX_TIMELINE_DISPATCHES);
  return out.sort((a, b) => a.seq - b.seq);
}

function groupByAttempt(dispatches: Dispatch[]): Array<[number, Dispatch[]]> {
  const groups = new Map<number, Dispatch[]>();
  for (const d of dispatches) {
    const list = groups.get(d.attempt) ?? [];
    list.push(d);
    groups.set(d.attempt, list);
  }
  return [...groups.entries()].sort((a, b) => a[0] - b[0]);
}
