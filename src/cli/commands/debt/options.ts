import type { CommonOptions } from '../../context.js';

export interface DebtAddOptions extends CommonOptions {
  category?: string;
  description?: string;
  impact?: string;
  solution?: string;
  task?: string;
  severity?: string;
}
