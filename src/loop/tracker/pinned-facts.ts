import {
  applyPlan,
  clipWords,
  createdPlanItemId,
  describeToolCall,
  formatToolCall,
  openPlanItems,
  type CallFailure,
  type PlanItem,
} from '../../vocabulary/index.js';

/** Characters of the newest request pinned. @default 300 */
export const PINNED_REQUEST_CHARS = 300;
/** Characters of one plan item pinned. @default 200 */
const PINNED_ITEM_CHARS = 200;
/** Open plan items pinned at most. @default 10 */
const PINNED_PLAN_ITEMS = 10;

/** One tool result as the pinned facts read it. */
export interface PinnedResult {
  name: string;
  args: Record<string, unknown>;
  output: string;
  /** failureOf of the call, worked out once by the recorder. */
  failure: CallFailure;
}

interface PinnedFailure {
  /** The call in one line (formatToolCall). */
  call: string;
  /** What a later run must repeat to fix it: the shell command, else the call's line. */
  rerun: string;
  line?: string;
  fixed: boolean;
}

/**
 * What the model must not lose whatever the budget, rendered beside the goal (about 150 tokens):
 * the newest user request, the open items of the newest plan (TodoWrite, TaskCreate/TaskUpdate,
 * update_plan, write_todos), and the newest failed call with its telling line (failureOf, the
 * vocabulary's one failure-line picker); a failure that a later run of the same command passed is
 * marked fixed.
 */
export class PinnedFacts {
  private request: string | undefined;
  private plan: PlanItem[] = [];
  private failure: PinnedFailure | undefined;

  /** A user request after the task. */
  recordRequest(text: string): void {
    if (text.trim()) this.request = text.trim();
  }

  /** A tool call's result: its plan change, its failure, or the fix of the pinned failure. */
  recordResult(result: PinnedResult): void {
    const d = describeToolCall(result.name, result.args);
    if (d.plan && d.planMode) this.plan = applyPlan(this.plan, { plan: d.plan, planMode: d.planMode }, createdPlanItemId(result.output));
    const { failure } = result;
    const call = formatToolCall(result.name, d);
    const rerun = d.command ?? call;
    if (failure.failed) this.failure = { call, rerun, fixed: false, ...(failure.line ? { line: failure.line } : {}) };
    else if (this.failure && !this.failure.fixed && this.failure.rerun === rerun) this.failure.fixed = true;
  }

  /** The open plan items, in order. */
  openPlan(): PlanItem[] {
    return openPlanItems(this.plan);
  }

  /** The pinned section's body; empty when nothing is pinned yet. */
  render(): string {
    const lines: string[] = [];
    if (this.request) lines.push(`newest request: ${clipWords(this.request.replace(/\s+/g, ' '), PINNED_REQUEST_CHARS)}`);
    const open = this.openPlan();
    if (open.length > 0) {
      lines.push(`open plan items (${open.length}):`);
      for (const item of open.slice(0, PINNED_PLAN_ITEMS)) {
        const mark = item.status === 'in_progress' ? ' (in progress)' : '';
        lines.push(`- ${clipWords(item.text.replace(/\s+/g, ' '), PINNED_ITEM_CHARS)}${mark}`);
      }
    }
    const f = this.failure;
    if (f) {
      const call = clipWords(f.call, 160);
      const status = f.fixed ? ' (fixed: a later run of it passed)' : '';
      lines.push(`newest failure${status}: ${call}${f.line ? `\n  ${f.line}` : ''}`);
    }
    return lines.join('\n');
  }
}
