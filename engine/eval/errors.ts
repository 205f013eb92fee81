/**
 * Where a model's errors are (`hivesight eval --errors`): at the model's own thresholds, each
 * label and each detection that matched nothing is put in one category. AP50 says how much is
 * lost; this says to what: a wrong type, a right box scored too low, a box in the wrong place, a
 * detection on nothing, or nothing there at all. Each kind calls for a different fix.
 */
import type { ProductClass } from '../types.ts';
import { iou } from '../detection/nms.ts';
import type { EvalClass } from './labels.ts';
import {
  IOU_THRESHOLD,
  assignMatches,
  countDifference,
  metricRows,
  shownAt,
  sliceImage,
} from './metrics.ts';
import type {
  CropClass,
  CropOutcome,
  ImageEval,
  MetricRow,
  Prediction,
  ScoreThresholds,
} from './metrics.ts';

/** Below the match IoU but above this, a box is on the insect but badly placed. */
export const POOR_BOX_IOU = 0.2;

export interface LabelOutcomes {
  support: number;
  /** Matched by a detection of its class at the threshold: recall's numerator. */
  found: number;
  /** Not found, but detected in the right place (IoU >= 0.5) as another class. */
  typed: Partial<Record<ProductClass, number>>;
  /** A detection of its class in the right place took a neighbouring label instead. */
  shared: number;
  /** In the right place only under the thresholds. */
  scored_low: number;
  /** Only a detection at the threshold overlapping it by IoU 0.2-0.5. */
  poor_box: number;
  /** Nothing at the threshold overlaps it by IoU 0.2, nor anything under it by 0.5. */
  missed: number;
}

export interface DetectionOutcomes {
  /** Detections of the class at its threshold. */
  total: number;
  /** Those that matched a label: precision's numerator. */
  right: number;
  /** On a label of another class (IoU >= 0.5), by that label's class. */
  on_other: Partial<Record<EvalClass, number>>;
  /** A second detection on a label of its class that another one matched. */
  duplicate: number;
  /** Overlapping a label by IoU 0.2-0.5 only. */
  poor_box: number;
  /** On no label. */
  background: number;
}

export interface CountBias {
  /** Images (with a label) where the detections at the thresholds outnumber the labels. */
  over: number;
  under: number;
  exact: number;
  /** Mean of (detected - labelled) / labelled, percent: the count error's sign. */
  mean_signed_pct: number | null;
}

/** One image's boxes, whatever their class: where to look first. */
export interface ImageErrors {
  image: string;
  labels: number;
  /** Detections at the thresholds. */
  detected: number;
  /** Labels with no detection of any class at IoU >= 0.5. */
  unmatched: number;
  /** Detections overlapping no label by IoU 0.2: in a frame of them, often bees left unlabelled. */
  on_nothing: number;
}

export interface BoxErrors {
  classes: Partial<Record<ProductClass, { labels: LabelOutcomes; detections: DetectionOutcomes }>>;
  count: CountBias;
  /** The images with the most unmatched labels and detections on nothing, worst first. */
  worst_images: ImageErrors[];
  iou: { match: number; poor_box: number };
}

export interface CropErrors {
  /** Rows: the crop's truth; columns: what the model called it (`none`: no honeybee found). */
  confusion: Record<CropClass, Record<CropClass | 'none', number>>;
}

function bump<K extends string>(counts: Partial<Record<K, number>>, key: K): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** The prediction overlapping `box` most among `candidates`, and that IoU. */
function bestOverlap<T extends { box: Prediction['box'] }>(
  box: Prediction['box'],
  candidates: readonly T[],
): { best: T | undefined; overlap: number } {
  let best: T | undefined;
  let overlap = 0;
  for (const c of candidates) {
    const o = iou(box, c.box);
    if (o > overlap) {
      best = c;
      overlap = o;
    }
  }
  return { best, overlap };
}

function rowErrors(
  images: readonly ImageEval[],
  row: MetricRow,
  thresholds: ScoreThresholds,
): { labels: LabelOutcomes; detections: DetectionOutcomes } {
  const kept = shownAt(thresholds);
  const slices = images.map((im) => sliceImage(im, row, kept));
  const matches = assignMatches(slices, IOU_THRESHOLD);
  const labels: LabelOutcomes = {
    support: 0,
    found: 0,
    typed: {},
    shared: 0,
    scored_low: 0,
    poor_box: 0,
    missed: 0,
  };
  const detections: DetectionOutcomes = {
    total: matches.length,
    right: 0,
    on_other: {},
    duplicate: 0,
    poor_box: 0,
    background: 0,
  };
  const foundBy = images.map(() => new Set<number>());
  for (const m of matches) {
    if (m.gt >= 0) {
      foundBy[m.imageIndex]!.add(m.gt);
      detections.right++;
      continue;
    }
    const image = images[m.imageIndex]!;
    const box = slices[m.imageIndex]!.predictions[m.prediction]!.box;
    const others = image.gt.filter((g) => !row.gt.includes(g.cls));
    const other = bestOverlap(box, others);
    const own = bestOverlap(
      box,
      image.gt.filter((g) => row.gt.includes(g.cls)),
    );
    if (other.best && other.overlap >= IOU_THRESHOLD) bump(detections.on_other, other.best.cls);
    else if (own.overlap >= IOU_THRESHOLD) detections.duplicate++;
    else if (Math.max(other.overlap, own.overlap) >= POOR_BOX_IOU) detections.poor_box++;
    else detections.background++;
  }
  images.forEach((image, i) => {
    const slice = slices[i]!;
    const shown = image.predictions.filter(kept);
    const under = image.predictions.filter((p) => !kept(p));
    slice.gt.forEach((box, g) => {
      labels.support++;
      if (foundBy[i]!.has(g)) {
        labels.found++;
        return;
      }
      const wrongType = bestOverlap(
        box,
        shown.filter((p) => !row.pred.includes(p.cls)),
      );
      if (wrongType.best && wrongType.overlap >= IOU_THRESHOLD)
        bump(labels.typed, wrongType.best.cls);
      else if (bestOverlap(box, slice.predictions).overlap >= IOU_THRESHOLD) labels.shared++;
      else if (bestOverlap(box, under).overlap >= IOU_THRESHOLD) labels.scored_low++;
      else if (bestOverlap(box, shown).overlap >= POOR_BOX_IOU) labels.poor_box++;
      else labels.missed++;
    });
  });
  return { labels, detections };
}

export function countBias(images: readonly ImageEval[], thresholds: ScoreThresholds): CountBias {
  const bias: CountBias = { over: 0, under: 0, exact: 0, mean_signed_pct: null };
  const signed: number[] = [];
  for (const image of images) {
    if (image.gt.length === 0) continue;
    const difference = countDifference(image, thresholds);
    if (difference > 0) bias.over++;
    else if (difference < 0) bias.under++;
    else bias.exact++;
    signed.push((difference / image.gt.length) * 100);
  }
  if (signed.length > 0) bias.mean_signed_pct = signed.reduce((a, b) => a + b, 0) / signed.length;
  return bias;
}

/** How many images `boxErrors` lists as the worst. */
export const WORST_IMAGES = 5;

function imageErrors(image: ImageEval, name: string, thresholds: ScoreThresholds): ImageErrors {
  const shown = image.predictions.filter(shownAt(thresholds));
  return {
    image: name,
    labels: image.gt.length,
    detected: shown.length,
    unmatched: image.gt.filter((g) => bestOverlap(g.box, shown).overlap < IOU_THRESHOLD).length,
    on_nothing: shown.filter((p) => bestOverlap(p.box, image.gt).overlap < POOR_BOX_IOU).length,
  };
}

function worstImages(
  images: readonly ImageEval[],
  names: readonly string[],
  thresholds: ScoreThresholds,
): ImageErrors[] {
  const badness = (e: ImageErrors) => e.unmatched + e.on_nothing;
  return images
    .map((image, i) => imageErrors(image, names[i] ?? `image ${i + 1}`, thresholds))
    .filter((e) => badness(e) > 0)
    .sort((a, b) => badness(b) - badness(a) || a.image.localeCompare(b.image))
    .slice(0, WORST_IMAGES);
}

/**
 * Every labelled class's errors, on the rows `evaluateBoxes` scores. `names`: the images'
 * names, in order, for the worst-images list.
 */
export function boxErrors(
  images: readonly ImageEval[],
  options: {
    thresholds: ScoreThresholds;
    modelClasses: readonly ProductClass[];
    names?: readonly string[];
  },
): BoxErrors {
  const classes: BoxErrors['classes'] = {};
  for (const row of metricRows(images).rows) {
    if (!row.pred.some((c) => options.modelClasses.includes(c))) continue;
    classes[row.row] = rowErrors(images, row, options.thresholds);
  }
  return {
    classes,
    count: countBias(images, options.thresholds),
    worst_images: worstImages(images, options.names ?? [], options.thresholds),
    iou: { match: IOU_THRESHOLD, poor_box: POOR_BOX_IOU },
  };
}

export function cropErrors(outcomes: readonly CropOutcome[]): CropErrors {
  const confusion: CropErrors['confusion'] = {
    bee: { bee: 0, pollen: 0, none: 0 },
    pollen: { bee: 0, pollen: 0, none: 0 },
  };
  for (const o of outcomes) confusion[o.truth][o.predicted ?? 'none']++;
  return { confusion };
}
