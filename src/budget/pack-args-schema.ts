import * as z from 'zod';
import { functionOption, objectWithMethods, parseInput } from '../util/index.js';

/**
 * packSections' arguments from code: each section and the options strict, so `{ maxtokens }` or
 * `{ overflow: 'truncate' }` is an error naming what Baton expects. Baton's own callers (the
 * loop, refresh, pre-context, the panel) use packSectionsUnchecked: their sections are built in
 * code, and the loop packs on every step.
 */
const sectionSchema = z.strictObject({
  id: z.string(),
  text: z.string(),
  priority: z.number(),
  required: z.boolean().optional(),
  maxTokens: z.number().int().min(0).optional(),
  minTokens: z.number().int().min(0).optional(),
  overflow: z.enum(['trim-head', 'trim-tail', 'head-tail', 'summarize', 'drop']).optional(),
  summary: z.union([z.string(), functionOption<() => string>()]).optional(),
  tokens: z.number().int().min(0).optional(),
});

const argsSchema = z.strictObject({
  sections: z.array(sectionSchema),
  options: z.strictObject({
    budget: z.number().int().min(0),
    counter: objectWithMethods(['count'], 'a TokenCounter ({ count(text): number })').optional(),
    separator: z.string().optional(),
    exact: z.boolean().optional(),
  }),
});

/** @throws BatonError CONFIG_INVALID naming each problem (`sections[2].overflow`, `options: unknown key ...`). */
export function checkPackArgs(sections: unknown, options: unknown): void {
  parseInput(argsSchema, { sections, options }, { what: 'packSections' });
}
