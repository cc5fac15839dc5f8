import { BatonError } from '../errors/index.js';
import { REFRESH_FORMATS, type RefreshFormat } from './types.js';

/** Hard token caps of each format (issue 6; seed 002 §2 and §9.1). */
export const FORMAT_TOKEN_CAPS: Readonly<Record<RefreshFormat, number>> = {
  minimal: 1_000,
  standard: 4_000,
  detailed: 10_000,
  narrative: 6_000,
};

/** Share of each format's cap the continuation prompt may take. */
export const PROMPT_TOKEN_CAPS: Readonly<Record<RefreshFormat, number>> = {
  minimal: 350,
  standard: 1_400,
  detailed: 2_500,
  narrative: 1_800,
};

/** §3.2: a README or a workflow longer than this is left out of non-detailed formats. */
export const README_INCLUDE_MAX_TOKENS = 2_000;
export const WORKFLOW_INCLUDE_MAX_TOKENS = 3_000;

/** The format asked for (`standard` when none), checked. @throws BatonError INPUT_INVALID naming the formats */
export function resolveFormat(format: string | undefined): RefreshFormat {
  const value = format ?? 'standard';
  if (!(REFRESH_FORMATS as readonly string[]).includes(value)) {
    throw new BatonError('INPUT_INVALID', `format must be one of ${REFRESH_FORMATS.join(', ')}; got "${value}"`, {
      details: { field: 'format', value },
    });
  }
  return value as RefreshFormat;
}
