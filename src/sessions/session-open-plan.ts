import { applyPlan, createdPlanItemId, openPlanItems, type PlanItem } from '../vocabulary/index.js';
import type { SessionToolCall } from './types.js';

/** A session's whole plan, its plan calls applied in order to `initial` (the vocabulary's applyPlan). Pure. */
export function sessionPlan(calls: readonly SessionToolCall[], initial: readonly PlanItem[] = []): PlanItem[] {
  let plan: PlanItem[] = [...initial];
  for (const c of calls)
    if (c.plan && c.planMode) plan = applyPlan(plan, { plan: c.plan, planMode: c.planMode }, createdPlanItemId(c.output ?? ''));
  return plan;
}

/** The open items of a session's plan, its plan calls applied in order (the vocabulary's applyPlan). Pure. */
export function sessionOpenPlan(calls: readonly SessionToolCall[]): PlanItem[] {
  return openPlanItems(sessionPlan(calls));
}
