/**
 * Detection and classification metrics, pure functions. AP follows COCO at a single IoU
 * threshold: predictions of a class from all images sorted by score, each greedily matched to
 * the unmatched ground-truth box of that class with the highest IoU (>= the threshold), then
 * 101-point interpolated precision over the recall axis, with the precision envelope.
 */
import { HONEYBEE_CLASSES, PRODUCT_CLASSES } from '../types.ts';
import type { Box, ProductClass } from '../types.ts';
import type { EvalClass } from './labels.ts';
import { iou } from '../detection/nms.ts';

export interface GroundTruth {
  cls: EvalClass;
  /** Any unit, as long as the image's predictions use the same one (IoU is unit-free). */
  box: Box;
}

export interface Prediction {
  cls: ProductClass;
  score: number;
  box: Box;
}

export interface ImageEval {
  gt: GroundTruth[];
  predictions: Prediction[];
}

/** The detector's own score thresholds: what the product shows users. */
export interface ScoreThresholds {
  score: number;
  perClass?: Partial<Record<ProductClass, number>>;
}

export interface ClassMetrics {
  /** Average precision at IoU 0.5; null when the model cannot detect the class. */
  ap50: number | null;
  /** Precision of the predictions at the model's threshold. */
  precision: number | null;
  /** Recall at the model's threshold. */
  recall: number | null;
  /** Ground-truth boxes of the class. */
  support: number;
}

export interface BoxMetrics {
  classes: Partial<Record<ProductClass, ClassMetrics>>;
  /** Mean over images (with at least one true box) of |predicted - true| / true count, percent. */
  count_error_pct: number | null;
  images: number;
  notes: string[];
}

export const IOU_THRESHOLD = 0.5;

export function thresholdFor(cls: ProductClass, thresholds: ScoreThresholds): number {
  return thresholds.perClass?.[cls] ?? thresholds.score;
}

/** Whether the product shows a prediction: its score reaches its class's threshold. */
export const shownAt =
  (thresholds: ScoreThresholds) =>
  (p: Prediction): boolean =>
    p.score >= thresholdFor(p.cls, thresholds);

/** One image's boxes of a single (possibly merged) class, ready for matching. */
export interface ClassImage {
  gt: Box[];
  predictions: { score: number; box: Box }[];
}

export interface MatchOutcome {
  /** Per prediction, in descending score order: true positive or not. */
  tp: boolean[];
  scores: number[];
  support: number;
}

/** One prediction's fate in the greedy matching: the label it took, or -1. */
export interface MatchedPrediction {
  imageIndex: number;
  /** Index into its image's `predictions`. */
  prediction: number;
  score: number;
  /** Index into its image's `gt`, or -1 for a false positive. */
  gt: number;
}

/**
 * Greedy COCO matching of one class over all images, predictions best first: each takes the
 * unmatched label it overlaps most (IoU >= the threshold), if any.
 */
export function assignMatches(
  images: readonly ClassImage[],
  iouThreshold = IOU_THRESHOLD,
): MatchedPrediction[] {
  const all = images.flatMap((image, imageIndex) =>
    image.predictions.map((p, prediction) => ({
      box: p.box,
      score: p.score,
      imageIndex,
      prediction,
    })),
  );
  // Stable sort: equal scores keep their input order, as COCO's mergesort does.
  all.sort((a, b) => b.score - a.score);
  const used = images.map((image) => image.gt.map(() => false));
  return all.map(({ box, score, imageIndex, prediction }) => {
    const gts = images[imageIndex]!.gt;
    const taken = used[imageIndex]!;
    let best = -1;
    let bestIou = iouThreshold;
    for (let g = 0; g < gts.length; g++) {
      if (taken[g]) continue;
      const overlap = iou(box, gts[g]!);
      if (overlap >= bestIou) {
        best = g;
        bestIou = overlap;
      }
    }
    if (best >= 0) taken[best] = true;
    return { imageIndex, prediction, score, gt: best };
  });
}

/** Greedy COCO matching of one class over all images. */
export function matchClass(
  images: readonly ClassImage[],
  iouThreshold = IOU_THRESHOLD,
): MatchOutcome {
  const matched = assignMatches(images, iouThreshold);
  return {
    tp: matched.map((m) => m.gt >= 0),
    scores: matched.map((m) => m.score),
    support: images.reduce((n, image) => n + image.gt.length, 0),
  };
}

/** COCO 101-point interpolated AP from a match outcome. 0 when there is no ground truth. */
export function averagePrecision(outcome: MatchOutcome): number {
  if (outcome.support === 0) return 0;
  const recall: number[] = [];
  const precision: number[] = [];
  let tp = 0;
  outcome.tp.forEach((hit, i) => {
    if (hit) tp++;
    recall.push(tp / outcome.support);
    precision.push(tp / (i + 1));
  });
  // Envelope: precision at recall r is the best precision at any recall >= r.
  for (let i = precision.length - 2; i >= 0; i--) {
    precision[i] = Math.max(precision[i]!, precision[i + 1]!);
  }
  let sum = 0;
  for (let k = 0; k <= 100; k++) {
    const r = k / 100;
    const i = recall.findIndex((value) => value >= r - 1e-12);
    sum += i >= 0 ? precision[i]! : 0;
  }
  return sum / 101;
}

function precisionRecall(outcome: MatchOutcome): { precision: number; recall: number } {
  const tp = outcome.tp.filter(Boolean).length;
  return {
    precision: outcome.tp.length === 0 ? 0 : tp / outcome.tp.length,
    recall: outcome.support === 0 ? 0 : tp / outcome.support,
  };
}

export interface BoxEvalOptions {
  thresholds: ScoreThresholds;
  /** Classes the model can detect; others get null metrics. Default: all. */
  modelClasses?: readonly ProductClass[];
  iouThreshold?: number;
}

/** A row of the metrics table: which ground-truth classes and which predicted classes it covers. */
export interface MetricRow {
  row: ProductClass;
  gt: readonly EvalClass[];
  pred: readonly ProductClass[];
}

/**
 * The rows a dataset's labels call for: one per labelled class, or, where honeybees are labelled
 * generically, one "bee" row merging worker, pollen and drone.
 */
export function metricRows(images: readonly ImageEval[]): { rows: MetricRow[]; generic: boolean } {
  const gtClasses = new Set(images.flatMap((image) => image.gt.map((g) => g.cls)));
  const generic = gtClasses.has('honeybee');
  const rows: MetricRow[] = [];
  for (const cls of PRODUCT_CLASSES) {
    if (generic && HONEYBEE_CLASSES.includes(cls)) continue;
    if (gtClasses.has(cls)) rows.push({ row: cls, gt: [cls], pred: [cls] });
  }
  if (generic) {
    rows.unshift({ row: 'bee', gt: ['honeybee', ...HONEYBEE_CLASSES], pred: HONEYBEE_CLASSES });
  }
  return { rows, generic };
}

/** One image's boxes for a row, predictions filtered by `keep`. */
export function sliceImage(
  image: ImageEval,
  row: MetricRow,
  keep: (p: Prediction) => boolean = () => true,
): ClassImage {
  return {
    gt: image.gt.filter((g) => row.gt.includes(g.cls)).map((g) => g.box),
    predictions: image.predictions.filter((p) => row.pred.includes(p.cls) && keep(p)),
  };
}

/**
 * Scores box predictions against ground truth. `predictions` should come from the detector run
 * with a low score threshold (for the AP curve); precision and recall use only predictions at
 * or above the model's own thresholds.
 */
export function evaluateBoxes(images: readonly ImageEval[], options: BoxEvalOptions): BoxMetrics {
  const { thresholds } = options;
  const modelClasses = options.modelClasses ?? PRODUCT_CLASSES;
  const iouThreshold = options.iouThreshold ?? IOU_THRESHOLD;
  const notes: string[] = [];
  const { rows, generic } = metricRows(images);
  if (generic) {
    notes.push(
      'The dataset labels honeybees generically, so the "bee" row merges bee, pollen and drone predictions and labels.',
    );
  }

  const classes: Partial<Record<ProductClass, ClassMetrics>> = {};
  for (const row of rows) {
    const support = images.reduce(
      (n, im) => n + im.gt.filter((g) => row.gt.includes(g.cls)).length,
      0,
    );
    if (!row.pred.some((c) => modelClasses.includes(c))) {
      classes[row.row] = { ap50: null, precision: null, recall: null, support };
      notes.push(`The model cannot detect "${row.row}": no metrics for it.`);
      continue;
    }
    const slice = (keep: (p: Prediction) => boolean): ClassImage[] =>
      images.map((im) => sliceImage(im, row, keep));
    const ap50 = averagePrecision(
      matchClass(
        slice(() => true),
        iouThreshold,
      ),
    );
    const atThreshold = precisionRecall(matchClass(slice(shownAt(thresholds)), iouThreshold));
    classes[row.row] = { ap50, ...atThreshold, support };
  }

  return {
    classes,
    count_error_pct: countErrorPct(images, thresholds),
    images: images.length,
    notes,
  };
}

/**
 * Mean absolute count error, percent: per image |predicted - true| / true with predictions of
 * every class at the model's thresholds. Images without any true box are left out (the ratio
 * is undefined); null when no image has one.
 */
export function countErrorPct(
  images: readonly ImageEval[],
  thresholds: ScoreThresholds,
): number | null {
  const errors = images
    .map((image) => imageCountErrorPct(image, thresholds))
    .filter((e): e is number => e !== null);
  return errors.length === 0 ? null : errors.reduce((a, b) => a + b, 0) / errors.length;
}

/** One image's detections at the thresholds minus its labels. */
export function countDifference(image: ImageEval, thresholds: ScoreThresholds): number {
  return image.predictions.filter(shownAt(thresholds)).length - image.gt.length;
}

/** One image's |predicted - true| / true, percent; null when it has no true box. */
export function imageCountErrorPct(image: ImageEval, thresholds: ScoreThresholds): number | null {
  if (image.gt.length === 0) return null;
  return (Math.abs(countDifference(image, thresholds)) / image.gt.length) * 100;
}

export type CropClass = 'pollen' | 'bee';

export interface CropOutcome {
  truth: CropClass;
  /** Predicted class, or null when the detector found no honeybee in the crop. */
  predicted: CropClass | null;
}

export interface CropMetrics {
  accuracy: number;
  classes: Partial<Record<CropClass, { precision: number; recall: number; support: number }>>;
  images: number;
  notes: string[];
}

/** The crop's prediction: the highest-scoring honeybee detection, pollen or not pollen. */
export function cropPrediction(predictions: readonly Prediction[]): CropClass | null {
  let best: Prediction | undefined;
  for (const p of predictions) {
    if (HONEYBEE_CLASSES.includes(p.cls) && (!best || p.score > best.score)) best = p;
  }
  if (!best) return null;
  return best.cls === 'pollen' ? 'pollen' : 'bee';
}

export function evaluateCrops(outcomes: readonly CropOutcome[]): CropMetrics {
  const correct = outcomes.filter((o) => o.predicted === o.truth).length;
  const classes: CropMetrics['classes'] = {};
  for (const cls of ['bee', 'pollen'] as const) {
    const support = outcomes.filter((o) => o.truth === cls).length;
    if (support === 0) continue;
    const predicted = outcomes.filter((o) => o.predicted === cls).length;
    const tp = outcomes.filter((o) => o.truth === cls && o.predicted === cls).length;
    classes[cls] = {
      precision: predicted === 0 ? 0 : tp / predicted,
      recall: tp / support,
      support,
    };
  }
  const missed = outcomes.filter((o) => o.predicted === null).length;
  return {
    accuracy: outcomes.length === 0 ? 0 : correct / outcomes.length,
    classes,
    images: outcomes.length,
    notes: missed > 0 ? [`${missed} crop(s) had no honeybee detection and count as wrong.`] : [],
  };
}
