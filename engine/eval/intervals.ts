/**
 * Bootstrap intervals for the eval's figures: how far AP50, count error or crop accuracy could
 * move on another draw of images like these. A validation set of 50 frames holds a few dozen
 * pollen bees, so a model change of 0.02 AP can be one bee; the interval says so.
 *
 * Images are resampled with replacement (percentile intervals). Consecutive video frames show
 * the same bees, so resampling them one by one understates the spread: `block` resamples runs of
 * that many consecutive images (a moving-block bootstrap, in the dataset's file-name order).
 * A fixed seed makes the interval repeatable, so two runs of one model print the same figures.
 */
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

/** mulberry32: small, fast and seedable; statistical quality is ample for resampling. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `resamples` index draws of n items, in runs of `block` consecutive ones. */
function* draws(n: number, s: IntervalSettings): Generator<number[]> {
  const next = random(s.seed);
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

/**
 * Intervals for `evaluateBoxes`' AP50 rows and count error. Each image is matched once (greedy
 * matching never crosses images), so a resample only merges and re-sorts its images' hits.
 */
export function bootstrapBoxIntervals(
  images: readonly ImageEval[],
  options: {
    thresholds: ScoreThresholds;
    modelClasses?: readonly ProductClass[];
    iouThreshold?: number;
  } & IntervalOptions,
): BoxIntervals {
  const s = settings(options, images.length);
  const iouThreshold = options.iouThreshold ?? IOU_THRESHOLD;
  const ap50: BoxIntervals['ap50'] = {};
  const perRow = metricRows(images).rows.map((row) => {
    const detectable =
      !options.modelClasses || row.pred.some((c) => options.modelClasses!.includes(c));
    const matched = detectable
      ? images.map((im) => matchClass([sliceImage(im, row)], iouThreshold))
      : null;
    return { row: row.row, matched, values: [] as number[] };
  });
  const counts = images.map((im) => imageCountErrorPct(im, options.thresholds));
  const countValues: number[] = [];

  if (images.length > 0) {
    for (const picked of draws(images.length, s)) {
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
        r.values.push(
          averagePrecision({
            tp: hits.map((h) => h.tp),
            scores: hits.map((h) => h.score),
            support,
          }),
        );
      }
      const errors = picked.map((i) => counts[i]).filter((e): e is number => e != null);
      if (errors.length > 0) countValues.push(mean(errors));
    }
  }
  for (const r of perRow) ap50[r.row] = r.matched ? percentileInterval(r.values, s.level) : null;
  return { ...s, ap50, count_error_pct: percentileInterval(countValues, s.level) };
}

/** Interval for `evaluateCrops`' accuracy. */
export function bootstrapCropIntervals(
  outcomes: readonly CropOutcome[],
  options: IntervalOptions = {},
): CropIntervals {
  const s = settings(options, outcomes.length);
  const correct = outcomes.map((o) => (o.predicted === o.truth ? 1 : 0));
  const values: number[] = [];
  if (outcomes.length > 0) {
    for (const picked of draws(outcomes.length, s))
      values.push(mean(picked.map((i) => correct[i]!)));
  }
  return { ...s, accuracy: percentileInterval(values, s.level) };
}
