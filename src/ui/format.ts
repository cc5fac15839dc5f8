/** Small, pure formatters shared by the views. */

/** "1.2 s", "340 ms", "2 min 5 s". */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const min = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return min < 60 ? `${min} min ${s} s` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** "12 s ago", "3 min ago", else an ISO date-time (UTC). */
export function formatAgo(at: number | undefined, now: number): string {
  if (at === undefined) return '—';
  const ms = now - at;
  if (ms < 0) return formatTime(at);
  if (ms < 60_000) return `${Math.max(0, Math.round(ms / 1000))} s ago`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min ago`;
  if (ms < 86_400_000) return `${Math.round(ms / 3_600_000)} h ago`;
  return formatTime(at);
}

/** ISO date-time to the second, UTC. */
export function formatTime(at: number | undefined): string {
  if (at === undefined) return '—';
  return `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Human words for the seams pre-context is injected at. */
export const SEAM_LABELS: Record<string, string> = {
  circuit_breaker: 'Provider switch',
  retry: 'Retry',
  helper: 'Helper agent',
  merge_conflict: 'Merge conflict',
};

/** Status words with spaces for display. */
export function statusLabel(status: string): string {
  return status.replace(/_/g, ' ');
}

const CLIENT_LABELS: Record<string, string> = { claude: 'Claude Code', gemini: 'Gemini CLI', codex: 'Codex CLI', copilot: 'Copilot CLI' };

/** An agent CLI's name for display ("Claude Code"); "—" for none. */
export function clientLabel(client: string | undefined): string {
  return client === undefined ? '—' : (CLIENT_LABELS[client] ?? client);
}
