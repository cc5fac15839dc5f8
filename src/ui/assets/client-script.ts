/**
 * The page's only script (vanilla JS, no framework, no build step), served as /assets/app.js.
 * The pages work without it; it adds: live updates (server-sent events, then the current view's
 * <main> is fetched again and swapped in, keeping focus, open <details> and form values),
 * countdowns to breaker resets, copy buttons, and keyboard shortcuts.
 */
export const CLIENT_SCRIPT = `
(() => {
  const main = document.getElementById('main');
  const live = document.getElementById('live');
  const setLive = (state, text) => { if (live) { live.dataset.state = state; live.textContent = text; } };

  // --- live updates -------------------------------------------------------------------------
  let timer = 0;
  let inFlight = false;
  let again = false;
  async function refresh() {
    if (inFlight) { again = true; return; }
    inFlight = true;
    try {
      const res = await fetch(location.href, { headers: { 'x-baton-fragment': '1' }, credentials: 'same-origin' });
      if (!res.ok) return;
      const markup = await res.text();
      const active = document.activeElement;
      const focusId = active && active.id;
      const open = [...main.querySelectorAll('details[open][id]')].map((d) => d.id);
      const values = [...main.querySelectorAll('input[id], select[id]')].map((el) => [el.id, el.value]);
      main.innerHTML = markup;
      for (const id of open) { const d = document.getElementById(id); if (d) d.open = true; }
      for (const [id, value] of values) { const el = document.getElementById(id); if (el && el.value !== value) el.value = value; }
      if (focusId) { const el = document.getElementById(focusId); if (el) el.focus({ preventScroll: true }); }
      tick();
      setLive('updated', 'updated ' + new Date().toLocaleTimeString());
      document.dispatchEvent(new CustomEvent('baton:updated'));
    } catch { /* the next change event retries */ } finally {
      inFlight = false;
      if (again) { again = false; void refresh(); }
    }
  }
  if (main && 'EventSource' in window) {
    const source = new EventSource('/events');
    source.addEventListener('hello', () => setLive('live', 'live'));
    source.addEventListener('change', () => { clearTimeout(timer); timer = setTimeout(refresh, 120); });
    source.onerror = () => setLive('off', 'reconnecting…');
  }

  // --- countdowns ---------------------------------------------------------------------------
  function left(ms) {
    if (ms <= 0) return 'now';
    const s = Math.ceil(ms / 1000);
    if (s < 60) return s + ' s';
    const m = Math.floor(s / 60);
    return m < 60 ? m + ' min ' + (s % 60) + ' s' : Math.floor(m / 60) + ' h ' + (m % 60) + ' min';
  }
  function tick() {
    for (const el of document.querySelectorAll('[data-until]')) {
      el.textContent = left(Number(el.dataset.until) - Date.now());
    }
  }
  tick();
  setInterval(tick, 1000);

  // --- copy buttons -------------------------------------------------------------------------
  document.addEventListener('click', async (event) => {
    const button = event.target.closest && event.target.closest('button[data-copy]');
    if (!button) return;
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    const text = source.textContent || '';
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      document.execCommand('copy');
    }
    const label = button.textContent;
    button.textContent = 'Copied';
    button.setAttribute('aria-live', 'polite');
    setTimeout(() => { button.textContent = label; }, 1500);
  });

  // --- keyboard shortcuts: "/" search, "g" then t/p/r/s/h/n/q to switch views --------------
  let pendingG = false;
  const views = { t: '/', p: '/providers', r: '/recovery', s: '/sessions', h: '/handoffs', n: '/panels', q: '/queue' };
  document.addEventListener('keydown', (event) => {
    const target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (event.key === '/') {
      const search = document.getElementById('q');
      if (search) { event.preventDefault(); search.focus(); search.select(); }
      return;
    }
    if (pendingG && views[event.key]) { pendingG = false; location.href = views[event.key]; return; }
    pendingG = event.key === 'g';
  });
})();
`;
