import * as z from 'zod';

/** Body of `POST /panel`. */
export const panelRequestSchema = z
  .object({
    question: z.string().trim().min(1, 'must not be empty').describe('The question every agent of the panel answers in turn'),
    attribution: z.enum(['assistant', 'user']).optional().describe("Overrides the panel file's attribution for this request"),
  })
  .strict();
