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

/**
 * A task as a plan file (JSON or YAML) spells it: snake_case, each field but `instructions`
 * optional, `retry_policy.max_retries` for PlanTask's `maxRetries`. plan-schema-match.ts ties it
 * to PlanTask and to the file's schema, so a new task field cannot be refused by a forgotten schema.
 */
export interface PlanTaskFile {
  id?: string;
  /** Seed 000's spelling of `id`. */
  task_id?: string;
  title?: string;
  instructions: string;
  intent?: string;
  acceptance_criteria?: Array<string | AcceptanceCriterion>;
  depends_on?: string[];
  retry_policy?: { max_retries?: number };
  options?: { enable_pre_context?: boolean; [key: string]: unknown };
  agent_mode?: string;
  priority?: number;
}

/** A plan file: `{ tasks: [...] }`. */
export interface PlanFileFormat {
  tasks: PlanTaskFile[];
}
