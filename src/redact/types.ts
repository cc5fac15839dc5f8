/** A text after masking, with how many secrets were masked in it. */
export interface RedactResult {
  text: string;
  /** Number of secret occurrences replaced by a `[REDACTED:<kind>]` marker. */
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
  /**
   * Global regex. With the `d` flag and a named group `secret` (or `secret2`), only that group is
   * masked (the key of `password=…`, the user and host of a URL stay); otherwise the whole match.
   */
  regex: RegExp;
  /**
   * A cheap test every text the rule can match passes (a literal the rule needs): a text failing it
   * skips the rule. Rules share gate objects, and each gate runs at most once per text.
   */
  gate?: RegExp;
  /** Keeps a match only when this returns true (a secret-like name, a value that is no placeholder). */
  accept?: (groups: Record<string, string | undefined>) => boolean;
}

/** Where a secret sits in a text, and its kind. */
export interface SecretRange {
  /** First character of the secret (UTF-16 index). */
  from: number;
  /** One past its last character. */
  to: number;
  kind: string;
}
