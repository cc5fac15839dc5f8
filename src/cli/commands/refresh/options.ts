import type { CommonOptions } from '../../context.js';

export interface RefreshCliOptions extends CommonOptions {
  format?: string;
  since?: string;
  save?: boolean;
  session?: string;
  git?: boolean;
  prompt?: boolean;
  dispatchLimit?: string;
  commitLimit?: string;
}
