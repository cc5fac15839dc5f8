/** @default 8: renders one fit may make (the last of them at `minBudget` when nothing fitted yet). */
export const DEFAULT_MAX_RENDERS = 8;
/** @default 0.03: a fitting candidate this close to its tightest cap is taken without trying a larger one. */
export const DEFAULT_FIT_SLACK = 0.03;

/** What `measure` reports of a candidate: one number per unit the caps name (tokens, bytes, characters, …). */
export type Measured<U extends string> = Readonly<Record<U, number>>;

/** The cap(s) a fit holds and where it looks for the budget. */
export interface FitLimits<T, U extends string> {
  /** The most each measure may be: a candidate fits when every one is within its cap. */
  caps: Readonly<Record<U, number>>;
  /** The first budget rendered: the largest one wanted. */
  budget: number;
  /** The smallest budget rendered before the fit gives up. @default 1 */
  minBudget?: number;
  /**
   * The budget a candidate really used, when that can be less than the one it was rendered at (a
   * packer's total): the next shrink starts from it. @default the budget it was rendered at
   */
  spent?: (candidate: T) => number;
  /** @default DEFAULT_FIT_SLACK */
  slack?: number;
  /** @default DEFAULT_MAX_RENDERS (2 at least) */
  maxRenders?: number;
}

/** One render and what it measured. */
interface Trial<T, U extends string> {
  candidate: T;
  measured: Measured<U>;
  budget: number;
  spent: number;
  /** The largest measure/cap: 1 or less fits. */
  ratio: number;
}

/**
 * The fit's answer. `fits: true`: the candidate of the largest budget tried that fits every cap.
 * `fits: false`: not even the smallest budget fits; the candidate is that smallest render, and
 * `over` names the caps it breaks.
 */
export type FitResult<T, U extends string> =
  | { fits: true; candidate: T; measured: Measured<U>; budget: number; renders: number }
  | { fits: false; candidate: T; measured: Measured<U>; budget: number; renders: number; over: U[] };

/**
 * Finds the largest budget whose render fits the caps, measured in the unit that matters (tokens of
 * what is sent, bytes, a client's escaped form). Renders at `budget`; while the render is over a
 * cap, shrinks by the measured overshoot (converted to budget units by what the renders so far
 * showed: how much each unit of budget spent measured); once a render fits below one that did not, narrows the gap between them until the fit
 * is within `slack` of its cap. Deterministic and pure as long as `render` and `measure` are;
 * assumes a smaller budget never renders larger. Never returns a candidate over a cap when a
 * smaller budget fits: with nothing fitted, the last render allowed is at `minBudget`.
 *
 * @example
 * const result = fit((budget) => packSections(sections, { budget }).text, (text) => ({ chars: text.length }),
 *   { caps: { chars: 9_500 }, budget: 2_400 });
 * if (!result.fits) console.warn(`still ${result.measured.chars} characters`);
 */
export function fit<T, U extends string>(
  render: (budget: number) => T,
  measure: (candidate: T) => Measured<U>,
  limits: FitLimits<T, U>,
): FitResult<T, U> {
  const top = Math.max(1, Math.floor(limits.budget));
  const floor = Math.min(top, Math.max(1, Math.floor(limits.minBudget ?? 1)));
  const maxRenders = Math.max(2, limits.maxRenders ?? DEFAULT_MAX_RENDERS);
  const slack = limits.slack ?? DEFAULT_FIT_SLACK;
  const units = Object.keys(limits.caps) as U[];
  const search: Search<T, U> = { top, floor, slack, units, limits, misses: [] };
  let budget = top;
  for (let renders = 1; ; renders += 1) {
    const candidate = render(budget);
    const measured = measure(candidate);
    const spent = Math.min(budget, Math.max(0, limits.spent?.(candidate) ?? budget));
    const trial = { candidate, measured, budget, spent, ratio: ratioOf(measured, limits.caps, units) };
    if (trial.ratio <= 1) {
      // A larger budget that measured the same hit a step of the render's own (a section whole or
      // not at all): the next size up is the miss already seen.
      if (search.best && trial.ratio === search.best.ratio) search.done = true;
      if (!search.best || budget > search.best.budget) search.best = trial;
    } else if (!search.over || budget < search.over.budget) {
      search.over = trial;
      search.misses.push(trial);
    }
    const next = renders < maxRenders ? nextBudget(search, maxRenders - renders) : undefined;
    if (next === undefined) return answer(search, renders);
    budget = next;
  }
}

interface Search<T, U extends string> {
  top: number;
  floor: number;
  slack: number;
  units: readonly U[];
  limits: FitLimits<T, U>;
  /** Fitting, the largest budget so far. */
  best?: Trial<T, U>;
  /** Over a cap, the smallest budget so far. */
  over?: Trial<T, U>;
  /** Every new smallest miss, in order (the shrink learns its rate from the last two). */
  misses: Array<Trial<T, U>>;
  /** Nothing better to find. */
  done?: boolean;
}

function answer<T, U extends string>(search: Search<T, U>, renders: number): FitResult<T, U> {
  if (search.best) {
    const { candidate, measured, budget } = search.best;
    return { fits: true, candidate, measured, budget, renders };
  }
  const { candidate, measured, budget } = search.over as Trial<T, U>;
  const over = search.units.filter((unit) => !(measured[unit] <= (search.limits.caps[unit] ?? 0)));
  return { fits: false, candidate, measured, budget, renders, over };
}

/** The next budget to render, or undefined when the search is done. */
function nextBudget<T, U extends string>(search: Search<T, U>, rendersLeft: number): number | undefined {
  const { best, over } = search;
  if (best) {
    // Nothing larger to try, close enough to the cap, or too little room between a fit and a miss.
    if (!over || search.done || best.budget >= search.top || best.ratio >= 1 - search.slack) return undefined;
    if (over.budget - best.budget <= Math.max(1, search.slack * over.budget)) return undefined;
    return between(best, over, 1 - search.slack / 2);
  }
  if (!over || over.budget <= search.floor) return undefined;
  if (rendersLeft === 1) return search.floor;
  return Math.max(search.floor, Math.min(over.budget - 1, shrunk(search, over)));
}

/**
 * A budget between a fit and a miss, where the straight line through them reaches `target`,
 * kept an eighth of the gap away from either end so that the gap always narrows.
 */
function between<T, U extends string>(low: Trial<T, U>, high: Trial<T, U>, target: number): number {
  const gap = high.budget - low.budget;
  const guess = low.budget + ((target - low.ratio) * gap) / (high.ratio - low.ratio);
  const margin = Math.max(1, Math.floor(gap / 8));
  const next = Number.isFinite(guess) ? Math.floor(guess) : low.budget + Math.floor(gap / 2);
  return Math.min(high.budget - margin, Math.max(low.budget + margin, next));
}

/**
 * The budget that should bring the smallest miss within every cap (aiming half the slack below):
 * each unit's excess divided by how much of it one budget unit makes: measured between the last
 * two misses, or before there are two, the miss's own measure per budget unit it spent. A pair of
 * misses that measured the same (a render that did not shrink) doubles the last step instead.
 */
function shrunk<T, U extends string>(search: Search<T, U>, over: Trial<T, U>): number {
  const previous = search.misses.at(-2);
  let step = 0;
  for (const unit of search.units) {
    const cap = search.limits.caps[unit] ?? 0;
    const excess = over.measured[unit] - cap * (1 - search.slack / 2);
    if (!(excess > 0)) continue;
    let rate = over.spent > 0 ? over.measured[unit] / over.spent : 1;
    if (previous && previous.spent > over.spent) {
      rate = (previous.measured[unit] - over.measured[unit]) / (previous.spent - over.spent);
      if (!(rate > 0)) return over.spent - 2 * (previous.budget - over.budget);
    }
    step = Math.max(step, Math.ceil(excess / rate));
  }
  if (!Number.isFinite(step)) return search.floor;
  return Math.floor(over.spent - Math.max(1, step));
}

function ratioOf<U extends string>(measured: Measured<U>, caps: Readonly<Record<U, number>>, units: readonly U[]): number {
  let ratio = 0;
  for (const unit of units) {
    const value = measured[unit];
    const cap = caps[unit];
    // NaN (a broken measure) never fits; a zero cap holds only zero.
    const r = !(value >= 0) ? Infinity : value <= cap ? (cap > 0 ? value / cap : 0) : cap > 0 ? value / cap : Infinity;
    ratio = Math.max(ratio, r);
  }
  return ratio;
}
