import type { ToolIntent } from '../classify-tool.js';

/** What a processor needs besides the raw output. */
export interface ProcessorInput {
  intent: ToolIntent;
  toolName: string;
  args: Record<string, unknown>;
  output: string;
  exitCode?: number;
  /** Identifiers the conversation mentions; read_file keeps the ranges that contain them. */
  relevantTerms?: ReadonlySet<string>;
}

/** A tool output reduced for the prompt. The raw text stays in the raw store. */
export interface ProcessedOutput {
  /** Short structured summary, a few lines. */
  summary: string;
  /** Error lines found in the output, normalized. */
  errors: string[];
}
