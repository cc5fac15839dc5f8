import { countTokens } from '../tokens/index.js';
import { blockers, formatAge } from './continuation-state.js';
import { clip, dispatchView, errorLines, nextAction, taskView } from './field-views.js';
import { README_INCLUDE_MAX_TOKENS, WORKFLOW_INCLUDE_MAX_TOKENS } from './format-budgets.js';
import type { ContextSnapshot, RefreshFormat } from './types.js';
import { toWireCase } from '../util/index.js';

/**
 * One piece of a rendered context competing for the budget. `json` fields are kept whole or
 * dropped (a cut JSON value would be garbage); `text` fields may be trimmed. A field with a
 * `group` is one item of the list named by the group.
 */
export interface ContextField {
  /** The key in the context; a list item is `group.index` (as metadata.dropped counts it). */
  id: string;
  /** A text list item's key in its group's object (JSON list items are kept in order instead). */
  key?: string;
  group?: string;
  kind: 'json' | 'text';
  value: unknown;
  priority: number;
  required?: boolean;
  overflow?: 'trim-tail' | 'trim-head' | 'head-tail' | 'drop';
  /** Per-field cap, so one long text cannot crowd out the rest. */
  maxTokens?: number;
  /** A shorter `json` value the packer uses before dropping the field (e.g. a result cut to its error lines). */
  summary?: unknown;
}

/** Builds the JSON fields of minimal, standard and detailed (seed 002 §2.1-§2.3, §3.2). Pure. */
export function buildContextFields(snapshot: ContextSnapshot, format: Exclude<RefreshFormat, 'narrative'>, now: number): ContextField[] {
  if (format === 'minimal') return minimalFields(snapshot, now);
  const options: FieldOptions = { detailed: format === 'detailed', now };
  // The order is the order of the keys in the rendered JSON.
  return [
    ...taskFields(snapshot, options),
    ...activeTaskFields(snapshot),
    ...dispatchFields(snapshot, options),
    ...agentSessionFields(snapshot, options),
    ...gitFields(snapshot, options),
    ...debtFields(snapshot, options),
    ...artifactFields(snapshot, options),
    ...workflowFields(snapshot, options),
    ...researchFields(snapshot, options),
    { id: 'environment', kind: 'json', value: snapshot.environment, priority: 50, overflow: 'drop' },
  ];
}

/** Item `i` of the JSON list `group`. */
function listItem(group: string, i: number): Pick<ContextField, 'id' | 'group' | 'kind'> {
  return { id: `${group}.${i}`, group, kind: 'json' };
}

/** What every field group of standard and detailed needs to know besides the snapshot. */
interface FieldOptions {
  detailed: boolean;
  now: number;
}

/** Minimal: the workspace, the task headline, the latest activity, blockers and the next action. */
function minimalFields(snapshot: ContextSnapshot, now: number): ContextField[] {
  const task = snapshot.task;
  const git = snapshot.git;
  const last = snapshot.dispatches[0];
  const fields: ContextField[] = [
    { id: 'workspace', kind: 'json', value: snapshot.workspace, priority: 100, required: true },
    {
      id: 'current_task',
      kind: 'json',
      value: task ? { id: task.id, status: task.status, description: clip(task.title, 200) } : null,
      priority: 100,
      required: true,
    },
    {
      id: 'recent_activity',
      kind: 'json',
      value: {
        last_dispatch: last ? `${last.id} (${last.status}${last.outcome ? `, ${last.outcome}` : ''})` : null,
        last_commit: git?.recentCommits[0] ? formatAge(now - git.recentCommits[0].at) : null,
        uncommitted_changes: git?.uncommitted ?? null,
        branch: git?.branch ?? null,
      },
      priority: 95,
      required: true,
    },
    { id: 'blockers', kind: 'json', value: blockers(snapshot).map((b) => clip(b, 200)), priority: 90 },
    { id: 'next_action', kind: 'json', value: nextAction(snapshot), priority: 92, required: true },
  ];
  const session = snapshot.agentSessions?.[0];
  if (session) fields.push({ id: 'last_session', kind: 'json', value: clip(session.data.summary, 300), priority: 85, overflow: 'drop' });
  return fields;
}

/**
 * The workspace's latest agent CLI sessions (Claude Code, Gemini CLI, Codex) as their hooks
 * recorded them: what each did (its summary), its last request and its latest failure. Below the
 * task's own attempts, above the file list.
 */
function agentSessionFields(snapshot: ContextSnapshot, { detailed, now }: FieldOptions): ContextField[] {
  return (snapshot.agentSessions ?? []).map((record, i) => {
    const last = record.data.failures[record.data.failures.length - 1];
    return {
      ...listItem('recent_sessions', i),
      value: {
        id: record.id,
        status: record.status ?? 'active',
        summary: clip(record.data.summary, 400),
        last_request: record.data.lastPrompt ? clip(record.data.lastPrompt, 200) : null,
        last_failure: last
          ? clip(`${last.command}${last.exitCode === undefined ? '' : ` (exit ${last.exitCode})`}: ${last.error ?? ''}`, 300)
          : null,
        last_active: formatAge(now - record.data.lastActivityAt),
      },
      priority: (detailed ? 58 : 82) - i * 0.1,
      overflow: 'drop',
    };
  });
}

/** The workspace, the current task (with long instructions as trimmable text), its dependencies and blockers. */
function taskFields(snapshot: ContextSnapshot, { detailed }: FieldOptions): ContextField[] {
  const task = snapshot.task;
  const git = snapshot.git;
  const fields: ContextField[] = [
    {
      id: 'workspace',
      kind: 'json',
      value: { path: snapshot.workspace, branch: git?.branch ?? null, head: git?.head?.slice(0, 12) ?? null },
      priority: 100,
      required: true,
    },
    {
      id: 'current_task',
      kind: 'json',
      value: task ? taskView(task, detailed) : null,
      priority: 100,
      required: true,
    },
  ];
  if (task?.instructions && !detailed && countTokens(task.instructions) > 300) {
    // Long instructions would crowd out everything else as a whole JSON field: trim as text.
    fields.push({
      id: 'task_instructions',
      kind: 'text',
      value: task.instructions,
      priority: 75,
      overflow: 'trim-tail',
    });
  }
  if (snapshot.dependencies.length > 0) {
    fields.push({ id: 'dependencies', kind: 'json', value: snapshot.dependencies, priority: 88 });
  }
  const blockerList = blockers(snapshot);
  if (blockerList.length > 0) fields.push({ id: 'blockers', kind: 'json', value: blockerList, priority: 92 });
  return fields;
}

/** Without a current task, the open tasks to pick from. */
function activeTaskFields(snapshot: ContextSnapshot): ContextField[] {
  if (snapshot.task) return [];
  return snapshot.activeTasks.map((t, i) => ({
    ...listItem('active_tasks', i),
    value: t,
    priority: 86 - i * 0.1,
    overflow: 'drop',
  }));
}

function dispatchFields(snapshot: ContextSnapshot, { detailed }: FieldOptions): ContextField[] {
  return snapshot.dispatches.map((d, i) => {
    const view = dispatchView(d, detailed);
    return {
      ...listItem('recent_dispatches', i),
      value: view,
      // Long attempt results give way first: cut to their error lines, then dropped.
      summary: view.result !== undefined ? { ...view, result: errorLines(d.result ?? ''), prompt_preview: undefined } : undefined,
      // The last dispatch's status and result are always included (§3.2). In detailed, older
      // attempts rank below the diff, the files, the README and the artifacts.
      priority: i === 0 ? 94 : detailed ? 57 - i * 0.1 : 80 - i * 0.1,
      required: i === 0,
      overflow: 'drop',
    };
  });
}

/** The git status, the changed files (when few, or in detailed) and, in detailed, the diff. */
function gitFields(snapshot: ContextSnapshot, { detailed, now }: FieldOptions): ContextField[] {
  const git = snapshot.git;
  if (!git) return [];
  const fields: ContextField[] = [
    {
      id: 'git_status',
      kind: 'json',
      value: {
        branch: git.branch ?? null,
        uncommitted_changes: git.uncommitted,
        staged_files: git.staged,
        untracked_files: git.untracked,
        diff_summary: git.diffSummary,
        recent_commits: git.recentCommits.map((c) => `${c.sha.slice(0, 7)} ${clip(c.subject, 120)} (${formatAge(now - c.at)})`),
      },
      priority: 93,
      required: true,
    },
  ];
  const listFiles = git.uncommitted < 20 || detailed;
  if (listFiles) {
    for (const [i, f] of git.changedFiles.entries()) {
      fields.push({
        ...listItem('modified_files', i),
        value: `${f.status} ${f.path}${f.added !== undefined ? ` +${f.added} -${f.deleted ?? 0}` : ''}`,
        priority: (detailed ? 76 : 60) - i * 0.001,
        overflow: 'drop',
      });
    }
  }
  if (detailed && git.diff) {
    fields.push({ id: 'git_diff', kind: 'text', value: git.diff, priority: 78, overflow: 'trim-tail', maxTokens: 3_000 });
  }
  return fields;
}

/** Open tech debt: the current task's first, the whole record only in detailed. */
function debtFields(snapshot: ContextSnapshot, { detailed }: FieldOptions): ContextField[] {
  const task = snapshot.task;
  return snapshot.debt.map((item, i) => ({
    ...listItem('open_tech_debt', i),
    value: detailed
      ? { id: item.id, task_id: item.taskId ?? null, ...(toWireCase(item.data) as Record<string, unknown>) }
      : { id: item.id, title: item.data.title, category: item.data.category, severity: item.data.severity, impact: item.data.impact },
    priority: (item.taskId === task?.id && task ? 85 : detailed ? 54 : 70) - i * 0.1,
    overflow: 'drop',
  }));
}

/** The task folder: its README when short enough (always in detailed), the file list, and in detailed the contents. */
function artifactFields(snapshot: ContextSnapshot, { detailed }: FieldOptions): ContextField[] {
  const artifacts = snapshot.artifacts;
  if (!artifacts) return [];
  const fields: ContextField[] = [];
  const readmeFits = artifacts.readme !== undefined && (detailed || countTokens(artifacts.readme) < README_INCLUDE_MAX_TOKENS);
  if (readmeFits)
    fields.push({
      id: 'task_readme',
      kind: 'text',
      value: artifacts.readme,
      priority: detailed ? 74 : 45,
      overflow: 'trim-tail',
      maxTokens: 1_500,
    });
  fields.push({
    id: 'task_artifacts',
    kind: 'json',
    value: {
      dir: artifacts.dir,
      tracking_logs: artifacts.trackingLogs.map((t) => t.name),
      artifacts: artifacts.artifacts.map((a) => `${a.name} (${a.bytes} bytes)`),
    },
    priority: detailed ? 73 : 55,
    overflow: 'drop',
  });
  if (detailed) fields.push(...artifactContentFields(artifacts));
  return fields;
}

/** Detailed only: the tracking logs (their latest lines kept) and the artifacts' contents. */
function artifactContentFields(artifacts: NonNullable<ContextSnapshot['artifacts']>): ContextField[] {
  const fields: ContextField[] = [];
  artifacts.trackingLogs.forEach((log, i) => {
    if (log.content) {
      fields.push({
        id: `tracking.${log.name}`,
        key: log.name,
        group: 'tracking_log_contents',
        kind: 'text',
        value: log.content,
        priority: 62 - i * 0.1,
        overflow: 'trim-head',
        maxTokens: 800,
      });
    }
  });
  artifacts.artifacts.forEach((a, i) => {
    if (a.content) {
      fields.push({
        id: `artifact.${a.name}`,
        key: a.name,
        group: 'artifact_contents',
        kind: 'text',
        value: a.content,
        priority: 60 - i * 0.1,
        overflow: 'trim-tail',
        maxTokens: 800,
      });
    }
  });
  return fields;
}

/** The active workflow and phase, and its text when short enough (always in detailed). */
function workflowFields(snapshot: ContextSnapshot, { detailed }: FieldOptions): ContextField[] {
  const workflow = snapshot.workflow;
  if (!workflow) return [];
  const fields: ContextField[] = [
    {
      id: 'workflow_context',
      kind: 'json',
      value: {
        active_workflow: workflow.active ?? null,
        current_phase: workflow.phase ?? null,
        available: workflow.available.slice(0, 30),
      },
      priority: 65,
      overflow: 'drop',
    },
  ];
  const fits = workflow.content && (detailed || countTokens(workflow.content) < WORKFLOW_INCLUDE_MAX_TOKENS);
  if (fits)
    fields.push({
      id: 'workflow_content',
      kind: 'text',
      value: workflow.content,
      priority: 30,
      overflow: 'trim-tail',
      maxTokens: 1_500,
    });
  return fields;
}

/** Related research and recon records, summarized outside detailed. */
function researchFields(snapshot: ContextSnapshot, { detailed }: FieldOptions): ContextField[] {
  const research = snapshot.research.map((r, i): ContextField => ({
    ...listItem('related_research', i),
    // §3.2: never the complete findings outside detailed; summarize and point to the record.
    value: detailed ? { id: r.id, ...r.data } : { id: r.id, topic: r.data.topic, summary: clip(r.data.summary, 400) },
    priority: 40 - i * 0.1,
    overflow: 'drop',
  }));
  const recon = snapshot.recon.map((r, i): ContextField => ({
    ...listItem('related_recon', i),
    value: detailed ? { id: r.id, ...r.data } : { id: r.id, target: r.data.target, summary: clip(r.data.summary, 300) },
    priority: 38 - i * 0.1,
    overflow: 'drop',
  }));
  return [...research, ...recon];
}
