import { html, type SafeHtml } from './html.js';
import type { NavKey, ViewResult } from './types.js';

const NAV: Array<{ key: NavKey; href: string; label: string; shortcut: string }> = [
  { key: 'tasks', href: '/', label: 'Tasks', shortcut: 'g t' },
  { key: 'providers', href: '/providers', label: 'Providers', shortcut: 'g p' },
  { key: 'recovery', href: '/recovery', label: 'Session recovery', shortcut: 'g r' },
  { key: 'sessions', href: '/sessions', label: 'Agent sessions', shortcut: 'g s' },
  { key: 'handoffs', href: '/handoffs', label: 'Handoffs', shortcut: 'g h' },
  { key: 'panels', href: '/panels', label: 'Panels', shortcut: 'g n' },
  { key: 'queue', href: '/queue', label: 'Queue', shortcut: 'g q' },
];

/** The page shell: skip link, navigation, live indicator, <main>, and the shortcut legend. */
export function renderPage(view: { title: string; nav: NavKey; body: SafeHtml }, ledgerName: string): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${view.title} · Baton</title>
        <link rel="stylesheet" href="/assets/app.css" />
        <script src="/assets/app.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <span class="brand">Baton</span>
          <nav aria-label="Views">
            ${NAV.map((item) => html`<a href="${item.href}" aria-keyshortcuts="${item.shortcut}" ${item.key === view.nav ? html` aria-current="page"` : ''}>${item.label}</a>`)}
          </nav>
          <span id="live" class="live" role="status" aria-live="polite" data-state="off">static</span>
          <span class="ledger-name" title="ledger">ledger ${ledgerName} · read-only</span>
        </header>
        <main id="main" tabindex="-1">${view.body}</main>
        <footer>
          Keys: <kbd>/</kbd> search · <kbd>g</kbd> then <kbd>t</kbd> tasks, <kbd>p</kbd> providers, <kbd>r</kbd> recovery,
          <kbd>s</kbd> agent sessions, <kbd>h</kbd> handoffs, <kbd>n</kbd> panels, <kbd>q</kbd> queue · <kbd>Tab</kbd> moves through links
          and buttons. This page never writes to the ledger.
        </footer>
      </body>
    </html> `.value;
}

/** A status or outcome badge; the class picks its colour, the text says it in words. */
export function badge(value: string | undefined): SafeHtml {
  if (!value) return html`<span class="badge">—</span>`;
  return html`<span class="badge ${value.replace(/[^a-z_]/gi, '')}">${value.replace(/_/g, ' ')}</span>`;
}

/** A <pre> with a copy button bound to it by id. */
export function copyBlock(id: string, label: string, text: string): SafeHtml {
  return html`<div class="copy-row">
      <h4 id="${id}-label">${label}</h4>
      <button type="button" class="copy secondary" data-copy="${id}" aria-label="Copy ${label}">Copy</button>
    </div>
    <pre id="${id}" aria-labelledby="${id}-label" tabindex="0">${text}</pre>`;
}

/** A column heading of dataTable; `num` ones are right-aligned. */
export type Column = string | { label: string; num: true };

/** A right-aligned (numeric) column heading. */
export const num = (label: string): Column => ({ label, num: true });

/** A table with an id, an optional caption, one header row of column headings, and the given body rows. */
export function dataTable(id: string, columns: readonly Column[], rows: unknown, caption?: string): SafeHtml {
  const head = columns.map((c) =>
    typeof c === 'string' ? html`<th scope="col">${c}</th>` : html`<th scope="col" class="num">${c.label}</th>`,
  );
  return html`<table id="${id}">
    ${
      caption &&
      html`<caption class="muted">
        ${caption}
      </caption>`
    }
    <thead>
      <tr>
        ${head}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

/** The newest/older links under a list read by cursor at `path`. */
export function pager(path: string, cursor: string | undefined, next: string | undefined): SafeHtml {
  return html`<nav class="pager" aria-label="Pages">
    ${cursor && html`<a href="${path}">« Newest</a>`}${next && html`<a class="button secondary" href="${path}?cursor=${encodeURIComponent(next)}">Older »</a>`}
  </nav>`;
}

/** The 404 view for a missing item: `message` says which one and links back. */
export function notFound(nav: NavKey, title: string, message: SafeHtml): ViewResult {
  return {
    title,
    nav,
    status: 404,
    body: html`<h1>${title}</h1>
      <p>${message}</p>`,
  };
}
