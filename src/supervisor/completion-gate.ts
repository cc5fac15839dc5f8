/** What a task's completion gate answers before the task completes (see RunTaskOptions.beforeComplete). */
export type CompletionGate =
  | { ok: true }
  | {
      ok: false;
      error: string;
      /** '' to use the retry context. */
      context: string;
      contextType: 'merge_conflict';
      extraAttempt: boolean;
      /** No attempt can help (only the user can resolve it): the task is blocked now. */
      final?: boolean;
    };
