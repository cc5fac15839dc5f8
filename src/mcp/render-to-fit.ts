/** Renders tried before the last one is sent: each shrinks the budget by what the last one overran. */
const MAX_RENDERS = 4;

export interface RenderToFitOptions<T> {
  /** The format's own cap, in tokens. */
  cap: number;
  /** The first budget to try; undefined for the cap itself (what a cached result was rendered for). */
  budget: number | undefined;
  /**
   * How far a render overshoots what the client takes whole, as a ratio: what it would hand its
   * model over its limit (tokens over the cap, bytes over a byte limit). 1 or less fits.
   */
  overshoot: (result: T) => number;
}

/**
 * Renders at the given budget and, while the client's own form of the result overshoots its limit,
 * again at a budget shrunk by the overshoot (and a little more each time); returns the first that
 * fits, or the last one tried. For limits the renderer cannot measure itself: a client's escaping of
 * a resource read, a client's byte limit. Each render is a refresh_context call of its own (a
 * second one records a second audit entry).
 */
export async function renderToFit<T>(render: (maxTokens: number | undefined) => Promise<T>, options: RenderToFitOptions<T>): Promise<T> {
  let budget = options.budget;
  for (let attempt = 1; ; attempt += 1) {
    const result = await render(budget);
    const over = options.overshoot(result);
    if (over <= 1 || attempt === MAX_RENDERS) return result;
    budget = Math.max(1, Math.floor((budget ?? options.cap) / over) - 16 * attempt);
  }
}
