import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { BatonError, errorMessage } from '../errors/index.js';
import { definedFields, describeJsonError, parseInput } from '../util/index.js';
import { orderTasks } from './order-tasks.js';
import { describePlanPath } from './describe-plan-path.js';
import { loadPlanArgsSchema, type PlanFile, planSchema } from './plan-schema.js';
import type { Plan } from './plan-types.js';

/**
 * Reads a plan file (JSON, or YAML for .yaml/.yml), validates it and returns its tasks in
 * dependency order.
 * @throws BatonError INPUT_INVALID naming the file, the task id and the field path of each problem
 * (`tasks[1] (id "api").acceptance_criteria[0].check`), unknown dependencies and cycles.
 */
export async function loadPlan(file: string, options: { cwd?: string } = {}): Promise<Plan> {
  parseInput(loadPlanArgsSchema, { file, options }, { what: 'loadPlan' });
  const resolved = path.resolve(options.cwd ?? process.cwd(), file);
  let text: string;
  try {
    text = await readFile(resolved, 'utf8');
  } catch (error) {
    throw new BatonError('INPUT_INVALID', `Cannot read plan file ${resolved}: ${errorMessage(error)}`, {
      cause: error,
      details: { file: resolved },
    });
  }
  return parsePlan(text, resolved);
}

/** Parses plan text; YAML when the file name says so, else JSON (falling back to YAML). */
export function parsePlan(text: string, file: string): Plan {
  const raw = parseText(text, file);
  const data = parseInput(planSchema, raw, {
    what: `Plan file ${file}`,
    code: 'INPUT_INVALID',
    details: { file },
    describePath: (issuePath) => describePlanPath(issuePath, raw),
  });
  return { file, tasks: orderTasks(toPlanTasks(data), file) };
}

function parseText(text: string, file: string): unknown {
  const yaml = /\.ya?ml$/i.test(file);
  try {
    return yaml ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    if (!yaml) {
      try {
        return parseYaml(text);
      } catch {
        // fall through to the JSON error, which names the file's declared format
      }
    }
    throw new BatonError(
      'INPUT_INVALID',
      `Plan file ${file} is not valid ${yaml ? 'YAML' : 'JSON'}: ${yaml ? errorMessage(error) : describeJsonError(text, error)}`,
      {
        details: { file },
      },
    );
  }
}

function toPlanTasks(data: PlanFile): Plan['tasks'] {
  return data.tasks.map((t) => {
    const id = (t.id ?? t.task_id) as string;
    return {
      id,
      title: t.title ?? id,
      instructions: t.instructions,
      intent: t.intent ?? '',
      acceptanceCriteria: t.acceptance_criteria.map((c) => (typeof c === 'string' ? { description: c } : c)),
      dependsOn: t.depends_on,
      options: t.options,
      priority: t.priority,
      ...definedFields({ maxRetries: t.retry_policy?.max_retries, agentMode: t.agent_mode }),
    };
  });
}
