/**
 * Bootstrap intervals for the eval's figures: how far AP50, count error or crop accuracy could
 * move on another draw of images like these. A validation set of 50 frames holds a few dozen
 * pollen bees, so a model change of 0.02 AP can be one bee; the interval says so.
 *
 * Images are resampled with replacement (percentile intervals). Consecutive video frames show
 * the same bees, so resampling them one by one understates the spread: `block` resamples runs of
 * that many consecutive images (a moving-block bootstrap, in the dataset's file-name order).
 * A fixed seed makes the interval repeatable, so two runs of one model print the same figures.
 * Two models on the same images are compared by a paired bootstrap (`bootstrap*Changes`): both
 * are scored on each resample, so what they share cancels.
 */
import { seededRandom } from '../random.ts';
import type { ProductClass } from '../types.ts';
import {
  averagePrecision,
  imageCountErrorPct,
  IOU_THRESHOLD,
  matchClass,
  metricRows,
  sliceImage,
} from './metrics.ts';
import type { CropOutcome, ImageEval, ScoreThresholds } from './metrics.ts';

export interface IntervalOptions {
  /** Resamples drawn; default 1,000. */
  resamples?: number;
  /** Consecutive images resampled together; default 1 (independent photos). */
  block?: number;
  /** Coverage, e.g. 0.95 (the default). */
  level?: number;
  seed?: number;
}

export interface Interval {
  low: number;
  high: number;
}

export interface IntervalSettings {
  level: number;
  resamples: number;
  block: number;
  seed: number;
}

export interface BoxIntervals extends IntervalSettings {
  /** Per metrics row; null where the row has no AP (the model cannot detect the class). */
  ap50: Partial<Record<ProductClass, Interval | null>>;
  count_error_pct: Interval | null;
}

export interface CropIntervals extends IntervalSettings {
  accuracy: Interval | null;
}

const DEFAULTS: IntervalSettings = { level: 0.95, resamples: 1000, block: 1, seed: 1 };

function settings(options: IntervalOptions, n: number): IntervalSettings {
  // Only the four settings: the caller's options also carry thresholds and classes.
  const s: IntervalSettings = {
    level: options.level ?? DEFAULTS.level,
    resamples: options.resamples ?? DEFAULTS.resamples,
    block: options.block ?? DEFAULTS.block,
    seed: options.seed ?? DEFAULTS.seed,
  };
  if (!Number.isInteger(s.resamples) || s.resamples < 10) {
    throw new RangeError(`resamples must be a whole number of at least 10, got ${s.resamples}.`);
  }
  if (!Number.isInteger(s.block) || s.block < 1) {
    throw new RangeError(`block must be a whole number of at least 1, got ${s.block}.`);
  }
  if (!(s.level > 0 && s.level < 1)) {
    throw new RangeError(`level must be between 0 and 1, got ${s.level}.`);
  }
  return { ...s, block: Math.min(s.block, Math.max(1, n)) };
}

/** `resamples` index draws of n items, in runs of `block` consecutive ones; none when n is 0. */
function* draws(n: number, s: IntervalSettings): Generator<number[]> {
  if (n === 0) return;
  const next = seededRandom(s.seed);
  const starts = n - s.block + 1;
  for (let r = 0; r < s.resamples; r++) {
    const picked: number[] = [];
    while (picked.length < n) {
      const start = Math.floor(next() * starts);
      for (let i = start; i < start + s.block && picked.length < n; i++) picked.push(i);
    }
    yield picked;
  }
}

/** Linear-interpolated quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

function percentileInterval(values: number[], level: number): Interval | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { low: quantile(sorted, tail), high: quantile(sorted, 1 - tail) };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The mean of per-item values on each resample. */
function resampledMeans(values: readonly number[], s: IntervalSettings): number[] {
  return Array.from(draws(values.length, s), (picked) => mean(picked.map((i) => values[i]!)));
}

export interface BoxScoring {
  thresholds: ScoreThresholds;
  modelClasses?: readonly ProductClass[];
  iouThreshold?: number;
}

/** A resample's figures: AP50 per row (undefined: no labelled box drawn) and count error. */
interface BoxFigures {
  rows: { row: ProductClass; detectable: boolean }[];
  of(picked: readonly number[]): { ap50: Map<ProductClass, number>; count?: number };
}

/**
 * Each image is matched once (greedy matching never crosses images), so a resample only merges
 * and re-sorts its images' hits.
 */
function boxFigures(images: readonly ImageEval[], scoring: BoxScoring): BoxFigures {
  const iouThreshold = scoring.iouThreshold ?? IOU_THRESHOLD;
  const perRow = metricRows(images).rows.map((row) => {
    const detectable =
      !scoring.modelClasses || row.pred.some((c) => scoring.modelClasses!.includes(c));
    const matched = detectable
      ? images.map((im) => matchClass([sliceImage(im, row)], iouThreshold))
      : null;
    return { row: row.row, matched };
  });
  const counts = images.map((im) => imageCountErrorPct(im, scoring.thresholds));
  return {
    rows: perRow.map((r) => ({ row: r.row, detectable: r.matched !== null })),
    of(picked) {
      const ap50 = new Map<ProductClass, number>();
      for (const r of perRow) {
        if (!r.matched) continue;
        const hits: { score: number; tp: boolean }[] = [];
        let support = 0;
        for (const i of picked) {
          const m = r.matched[i]!;
          support += m.support;
          m.scores.forEach((score, k) => hits.push({ score, tp: m.tp[k]! }));
        }
        // A resample without any labelled box of the row has no AP: it is left out.
        if (support === 0) continue;
        hits.sort((a, b) => b.score - a.score);
        const tp = hits.map((h) => h.tp);
        ap50.set(r.row, averagePrecision({ tp, scores: hits.map((h) => h.score), support }));
      }
      const errors = picked.map((i) => counts[i]).filter((e): e is number => e != null);
      return { ap50, ...(errors.length > 0 && { count: mean(errors) }) };
    },
  };
}

/** Intervals for `evaluateBoxes`' AP50 rows and count error. */
export function bootstrapBoxIntervals(
  images: readonly ImageEval[],
  options: BoxScoring & IntervalOptions,
): BoxIntervals {
  const s = settings(options, images.length);
  const figures = boxFigures(images, options);
  const values = new Map<ProductClass, number[]>(figures.rows.map((r) => [r.row, []]));
  const countValues: number[] = [];
  for (const picked of draws(images.length, s)) {
    const f = figures.of(picked);
    for (const [row, ap] of f.ap50) values.get(row)!.push(ap);
    if (f.count !== undefined) countValues.push(f.count);
  }
  const ap50: BoxIntervals['ap50'] = {};
  for (const r of figures.rows) {
    ap50[r.row] = r.detectable ? percentileInterval(values.get(r.row)!, s.level) : null;
  }
  return { ...s, ap50, count_error_pct: percentileInterval(countValues, s.level) };
}

/** A candidate's figure minus the baseline's on the same images, with its interval. */
export interface Change extends Interval {
  value: number;
}

export interface BoxChanges extends IntervalSettings {
  /** Per row of the candidate's table; null where either model cannot detect the class. */
  ap50: Partial<Record<ProductClass, Change | null>>;
  count_error_pct: Change | null;
}

export interface CropChanges extends IntervalSettings {
  accuracy: Change | null;
}

/**
 * How the candidate's figures differ from the baseline's on the same images: a paired bootstrap
 * (both models scored on each resample), so what the two share (the same hard frames, the same
 * rare bees) cancels and the interval is far narrower than either model's own.
 */
export function bootstrapBoxChanges(
  candidate: readonly ImageEval[],
  baseline: readonly ImageEval[],
  options: { candidate: BoxScoring; baseline: BoxScoring } & IntervalOptions,
): BoxChanges {
  if (candidate.length !== baseline.length) {
    throw new RangeError('The candidate and the baseline must be scored on the same images.');
  }
  const s = settings(options, candidate.length);
  const a = boxFigures(candidate, options.candidate);
  const b = boxFigures(baseline, options.baseline);
  const all = Array.from(candidate, (_, i) => i);
  const pointA = a.of(all);
  const pointB = b.of(all);
  const both = a.rows
    .filter((r) => r.detectable && b.rows.some((o) => o.row === r.row && o.detectable))
    .map((r) => r.row);
  const values = new Map<ProductClass, number[]>(both.map((row) => [row, []]));
  const countValues: number[] = [];
  for (const picked of draws(candidate.length, s)) {
    const fa = a.of(picked);
    const fb = b.of(picked);
    for (const row of both) {
      const va = fa.ap50.get(row);
      const vb = fb.ap50.get(row);
      if (va !== undefined && vb !== undefined) values.get(row)!.push(va - vb);
    }
    if (fa.count !== undefined && fb.count !== undefined) countValues.push(fa.count - fb.count);
  }
  const change = (value: number | undefined, spread: number[]): Change | null => {
    const interval = percentileInterval(spread, s.level);
    return value === undefined || !interval ? null : { value, ...interval };
  };
  const ap50: BoxChanges['ap50'] = {};
  for (const r of a.rows) {
    const va = pointA.ap50.get(r.row);
    const vb = pointB.ap50.get(r.row);
    ap50[r.row] = both.includes(r.row)
      ? change(va !== undefined && vb !== undefined ? va - vb : undefined, values.get(r.row)!)
      : null;
  }
  const count =
    pointA.count !== undefined && pointB.count !== undefined
      ? pointA.count - pointB.count
      : undefined;
  return { ...s, ap50, count_error_pct: change(count, countValues) };
}

const isRight = (o: CropOutcome) => (o.predicted === o.truth ? 1 : 0);

/** Interval for `evaluateCrops`' accuracy. */
export function bootstrapCropIntervals(
  outcomes: readonly CropOutcome[],
  options: IntervalOptions = {},
): CropIntervals {
  const s = settings(options, outcomes.length);
  const correct = outcomes.map(isRight);
  return { ...s, accuracy: percentileInterval(resampledMeans(correct, s), s.level) };
}

/** The candidate's crop accuracy minus the baseline's on the same crops (paired bootstrap). */
export function bootstrapCropChanges(
  candidate: readonly CropOutcome[],
  baseline: readonly CropOutcome[],
  options: IntervalOptions = {},
): CropChanges {
  if (candidate.length !== baseline.length) {
    throw new RangeError('The candidate and the baseline must be scored on the same crops.');
  }
  const s = settings(options, candidate.length);
  const diff = candidate.map((o, i) => isRight(o) - isRight(baseline[i]!));
  const interval = percentileInterval(resampledMeans(diff, s), s.level);
  return { ...s, accuracy: interval && { value: mean(diff), ...interval } };
}
