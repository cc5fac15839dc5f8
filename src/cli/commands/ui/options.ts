import type { CommonOptions } from '../../context.js';

export interface UiCliOptions extends CommonOptions {
  port?: string;
  host?: string;
  token?: string;
  workspace?: string;
}
