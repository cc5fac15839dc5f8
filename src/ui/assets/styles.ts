/**
 * The page's stylesheet, shipped inside the package (no CDN, no build step). Colours come from
 * custom properties so light and dark themes follow `prefers-color-scheme`; focus is always a
 * visible ring.
 */
export const STYLES = `
:root {
  color-scheme: light dark;
  --bg: #fbfbfa; --panel: #ffffff; --fg: #1d1f23; --muted: #5b6270; --line: #d9dce1;
  --accent: #1f5fbf; --accent-fg: #ffffff; --code-bg: #f2f3f5; --focus: #d9480f;
  --ok: #1a7f37; --warn: #9a6700; --bad: #c0262d; --info: #1f5fbf; --idle: #6e7781;
  --ok-bg: #dafbe1; --warn-bg: #fff1c2; --bad-bg: #ffe1e1; --info-bg: #ddeaff; --idle-bg: #eceef1;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 15px; line-height: 1.45;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111317; --panel: #181b20; --fg: #e6e8eb; --muted: #9aa3af; --line: #2f343c;
    --accent: #6ea8ff; --accent-fg: #0b1220; --code-bg: #1f232a; --focus: #ffa94d;
    --ok: #56d364; --warn: #e3b341; --bad: #ff7b72; --info: #79b8ff; --idle: #9aa3af;
    --ok-bg: #12361f; --warn-bg: #3b2e05; --bad-bg: #4a1518; --info-bg: #132a4d; --idle-bg: #262b33;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 3px; }
.skip { position: absolute; left: -9999px; top: 0; background: var(--panel); padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; }
header.top { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center; padding: .6rem 1.25rem; border-bottom: 1px solid var(--line); background: var(--panel); }
.brand { font-weight: 700; font-size: 1.1rem; letter-spacing: .02em; }
header nav { display: flex; gap: .25rem; flex-wrap: wrap; }
header nav a { padding: .3rem .7rem; border-radius: 6px; text-decoration: none; color: var(--fg); }
header nav a[aria-current="page"] { background: var(--accent); color: var(--accent-fg); }
header nav a:hover { background: var(--code-bg); }
header nav a[aria-current="page"]:hover { background: var(--accent); }
.ledger-name { color: var(--muted); font-size: .85rem; margin-left: auto; overflow-wrap: anywhere; }
.live { font-size: .85rem; color: var(--muted); white-space: nowrap; }
.live::before { content: "●"; margin-right: .3rem; color: var(--idle); }
.live[data-state="live"]::before { color: var(--ok); }
.live[data-state="updated"]::before { color: var(--info); }
main { padding: 1rem 1.25rem 3rem; max-width: 1400px; margin: 0 auto; }
main:focus { outline: none; }
h1 { font-size: 1.45rem; margin: .3rem 0 .8rem; }
h2 { font-size: 1.15rem; margin: 1.4rem 0 .6rem; }
h3 { font-size: 1rem; margin: .8rem 0 .4rem; }
p.lead { color: var(--muted); margin-top: 0; }
.muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); background: var(--code-bg); }
tbody th { text-transform: none; letter-spacing: normal; font-size: inherit; color: var(--fg); background: transparent; font-weight: 600; }
tr:last-child td, tr:last-child th { border-bottom: none; }
caption { text-align: left; padding: .2rem 0 .4rem; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .85rem; }
code { background: var(--code-bg); padding: .05rem .3rem; border-radius: 4px; }
pre { background: var(--code-bg); border: 1px solid var(--line); border-radius: 6px; padding: .7rem .8rem; margin: .3rem 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 32rem; overflow: auto; }
.badge { display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: .8rem; font-weight: 600; white-space: nowrap; background: var(--idle-bg); color: var(--idle); }
.badge.ok, .badge.completed, .badge.closed { background: var(--ok-bg); color: var(--ok); }
.badge.in_progress, .badge.running, .badge.half_open, .badge.retry { background: var(--info-bg); color: var(--info); }
.badge.blocked, .badge.failed, .badge.open, .badge.auth_failed, .badge.quota_exhausted, .badge.config_error { background: var(--bad-bg); color: var(--bad); }
.badge.rate_limited, .badge.overloaded, .badge.timeout, .badge.validation_failed, .badge.agent_error, .badge.context_window, .badge.interrupted, .badge.circuit_breaker, .badge.helper { background: var(--warn-bg); color: var(--warn); }
.tabs { display: flex; flex-wrap: wrap; gap: .4rem; margin: 0 0 .8rem; padding: 0; list-style: none; }
.tabs a { display: inline-flex; gap: .4rem; align-items: center; padding: .3rem .7rem; border: 1px solid var(--line); border-radius: 999px; text-decoration: none; color: var(--fg); background: var(--panel); }
.tabs a[aria-current="true"] { border-color: var(--accent); box-shadow: inset 0 0 0 1px var(--accent); font-weight: 600; }
.tabs .count { font-variant-numeric: tabular-nums; color: var(--muted); }
form.search { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin-bottom: .8rem; }
input, select, button { font: inherit; color: inherit; }
input[type="search"], input[type="text"], select { padding: .35rem .55rem; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); min-width: 16rem; }
button, .button { padding: .35rem .8rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: transparent; color: var(--accent); }
.pager { display: flex; gap: .8rem; align-items: center; margin-top: .8rem; }
.layout { display: grid; grid-template-columns: minmax(0, 3fr) minmax(16rem, 1fr); gap: 1.25rem; }
@media (max-width: 900px) { .layout { grid-template-columns: 1fr; } }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: .8rem 1rem; margin-bottom: .8rem; }
.card > h2:first-child, .card > h3:first-child { margin-top: 0; }
ul.plain { list-style: none; padding: 0; margin: 0; }
ul.plain li { padding: .3rem 0; border-bottom: 1px dashed var(--line); }
ul.plain li:last-child { border-bottom: none; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .25rem .9rem; margin: 0; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; }
.attempt { border-left: 3px solid var(--line); padding-left: 1rem; margin: 1rem 0 1.5rem; }
.try { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: .7rem .9rem; margin: .6rem 0; }
.try-head { display: flex; flex-wrap: wrap; gap: .4rem .8rem; align-items: baseline; }
.try-head .who { font-weight: 700; }
.seam { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr); gap: .8rem; margin-top: .6rem; }
@media (max-width: 900px) { .seam { grid-template-columns: 1fr; } }
.seam > div { min-width: 0; }
.seam h4 { margin: .2rem 0 .3rem; font-size: .9rem; }
.errors { color: var(--bad); margin: .3rem 0; padding-left: 1.2rem; }
.files { margin: .3rem 0; }
.files code { margin-right: .3rem; }
.copy-row { display: flex; justify-content: space-between; align-items: center; gap: .5rem; }
.copy { font-size: .8rem; padding: .15rem .55rem; }
details > summary { cursor: pointer; color: var(--accent); margin: .4rem 0; }
.empty { border: 2px dashed var(--line); border-radius: 10px; padding: 1.5rem; color: var(--muted); background: var(--panel); }
.empty strong { color: var(--fg); }
svg.mix { width: 100%; max-width: 22rem; height: .9rem; display: block; border-radius: 3px; background: var(--idle-bg); }
svg.mix rect.ok { fill: var(--ok); } svg.mix rect.warn { fill: var(--warn); } svg.mix rect.bad { fill: var(--bad); } svg.mix rect.idle { fill: var(--idle); }
.legend { display: flex; flex-wrap: wrap; gap: .3rem .8rem; font-size: .8rem; margin-top: .3rem; }
.notice { background: var(--warn-bg); color: var(--fg); border: 1px solid var(--warn); border-radius: 8px; padding: .6rem .8rem; }
footer { color: var(--muted); font-size: .8rem; padding: 1rem 1.25rem; border-top: 1px solid var(--line); }
kbd { font-family: inherit; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: 0 .3rem; background: var(--panel); }
`;
