import type { CommonOptions } from '../../context.js';

export interface TaskAddOptions extends CommonOptions {
  title: string;
  instructions?: string;
  intent?: string;
  criterion: string[];
  dependsOn?: string;
  priority?: string;
  mode?: string;
  difficulty?: string;
}
