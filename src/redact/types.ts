/** A text after masking, with how many secrets were masked in it. */
export interface RedactResult {
  text: string;
  /** Number of secret occurrences replaced by a `[REDACTED:<kind>]` marker. */
  count: number;
}

/** Many texts after masking, in input order, with the total masked across them. */
export interface RedactManyResult {
  texts: string[];
  count: number;
}

/** A JSON-like value whose every string was masked. */
export interface RedactValueResult<T> {
  value: T;
  count: number;
}

/** One regex-detectable secret shape. */
export interface SecretPattern {
  /** Shows up in the marker: `[REDACTED:<kind>]`. */
  kind: string;
  /** Global regex. When `keepGroup` is set, that capture group is kept before the marker. */
  regex: RegExp;
  /** Capture group holding a harmless prefix (`Bearer `, `password=`) kept in the output. */
  keepGroup?: number;
  /** Capture group holding a harmless suffix (`@` of a URL) kept in the output. */
  keepSuffixGroup?: number;
}
