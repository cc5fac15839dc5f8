import type { AcceptanceCriterion } from '../ledger/index.js';

/** One task of a plan file, after validation (plain types inside the module). */
export interface PlanTask {
  id: string;
  title: string;
  instructions: string;
  intent: string;
  acceptanceCriteria: AcceptanceCriterion[];
  dependsOn: string[];
  /** retry_policy.max_retries: attempts allowed (seed 000's loop runs `attempt <= max_retries`). */
  maxRetries?: number;
  options: Record<string, unknown>;
  agentMode?: string;
  priority: number;
}

export interface Plan {
  /** The file it came from, for messages. */
  file?: string;
  tasks: PlanTask[];
}
