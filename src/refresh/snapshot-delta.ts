import type { ContextSnapshot } from './types.js';

/** One changed entity between two snapshots, e.g. `{ key: 'dispatch:d12', value: {...} }`. */
export interface DeltaEntry {
  key: string;
  value: unknown;
  /** For updates: the fields whose value changed. */
  changed?: string[];
}

/** What changed since a point in time or a saved snapshot (seed 002 §8.2). */
export interface ContextDelta {
  since: string;
  /** Snapshot id compared against, when there was one. */
  base?: string;
  added: DeltaEntry[];
  updated: DeltaEntry[];
  removed: DeltaEntry[];
}

/** Flattens a snapshot into keyed entities so two snapshots can be compared. Pure. */
export function snapshotEntities(snapshot: ContextSnapshot): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const task = snapshot.task;
  if (task) {
    out.set(`task:${task.id}`, {
      title: task.title,
      status: task.status,
      priority: task.priority,
      blockReason: task.blockReason,
      resultSummary: task.resultSummary,
      workflowPhase: task.links.workflowPhase,
      updatedAt: task.updatedAt,
      createdAt: task.createdAt,
    });
  }
  for (const dep of snapshot.dependencies) out.set(`dependency:${dep.id}`, { ...dep });
  for (const t of snapshot.activeTasks) out.set(`active_task:${t.id}`, { ...t });
  for (const d of snapshot.dispatches) {
    out.set(`dispatch:${d.id}`, {
      taskId: d.taskId,
      attempt: d.attempt,
      provider: d.provider,
      status: d.status,
      outcome: d.outcome,
      result: d.result,
      createdAt: d.startedAt,
      updatedAt: d.finishedAt ?? d.startedAt,
    });
  }
  for (const item of snapshot.debt)
    out.set(`debt:${item.id}`, { ...item.data, status: item.status, createdAt: item.createdAt, updatedAt: item.updatedAt });
  for (const r of snapshot.research)
    out.set(`research:${r.id}`, { topic: r.data.topic, summary: r.data.summary, createdAt: r.createdAt, updatedAt: r.updatedAt });
  if (snapshot.git) {
    out.set('git:head', { head: snapshot.git.head, branch: snapshot.git.branch });
    for (const c of snapshot.git.recentCommits)
      out.set(`commit:${c.sha}`, { subject: c.subject, author: c.author, createdAt: c.at, updatedAt: c.at });
    for (const f of snapshot.git.changedFiles) out.set(`file:${f.path}`, { status: f.status, added: f.added, deleted: f.deleted });
  }
  return out;
}

/** Compares two snapshots entity by entity. Pure. */
export function compareSnapshots(before: ContextSnapshot, after: ContextSnapshot, since: string, base?: string): ContextDelta {
  const a = snapshotEntities(before);
  const b = snapshotEntities(after);
  const delta: ContextDelta = { since, base, added: [], updated: [], removed: [] };
  for (const [key, value] of b) {
    const old = a.get(key);
    if (!old) delta.added.push({ key, value });
    else {
      const changed = Object.keys({ ...old, ...value }).filter((field) => JSON.stringify(old[field]) !== JSON.stringify(value[field]));
      if (changed.length > 0) delta.updated.push({ key, value, changed });
    }
  }
  for (const [key, value] of a) if (!b.has(key)) delta.removed.push({ key, value });
  return delta;
}

/**
 * Delta against a point in time when no snapshot older than it exists: entities created at or
 * after `sinceMs` are added, older ones updated since then are updated; removals cannot be known.
 */
export function deltaSinceTime(after: ContextSnapshot, sinceMs: number, since: string): ContextDelta {
  const delta: ContextDelta = { since, added: [], updated: [], removed: [] };
  for (const [key, value] of snapshotEntities(after)) {
    const created = typeof value.createdAt === 'number' ? value.createdAt : undefined;
    const updated = typeof value.updatedAt === 'number' ? value.updatedAt : created;
    if (created !== undefined && created >= sinceMs) delta.added.push({ key, value });
    else if (updated !== undefined && updated >= sinceMs) delta.updated.push({ key, value });
  }
  return delta;
}
