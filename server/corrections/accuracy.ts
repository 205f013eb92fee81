/**
 * How the model did on the frames a beekeeper corrected at one hive (issue 46, "your hive's
 * accuracy"). The corrected labels are the truth; the model's boxes are its detections on the
 * same still when the frame was first corrected. Class-agnostic: the figures speak of insects.
 *
 * For frames f = 1..N with C_f corrected boxes and M_f model boxes:
 * - count error  = 100 x sum_f |M_f - C_f| / sum_f C_f   ("the model's counts were within X %")
 * - found share  = 100 x sum_f matched_f / sum_f C_f     ("the share of insects found")
 *   where matched_f pairs model and corrected boxes one to one, greedily by descending IoU,
 *   a pair counting when its IoU is at least 0.5 (the AP50 rule `hivesight eval` uses).
 * Both are pooled over insects, so a busy frame weighs more than an empty one, and both are
 * null when the frames hold no corrected insect. Shown only from MIN_FRAMES frames on.
 */
import type { Box } from '../../engine/vocabulary.ts';

export const MIN_FRAMES = 5;
export const MATCH_IOU = 0.5;

export interface FramePair {
  labels: ReadonlyArray<{ box: Box }>;
  model: ReadonlyArray<{ box: Box }>;
}

export interface HiveAccuracy {
  frames: number;
  /** Whether there are enough frames (MIN_FRAMES) for the figure to be shown. */
  enough: boolean;
  insects: number;
  modelInsects: number;
  found: number;
  countErrorPct: number | null;
  foundPct: number | null;
}

export function iou(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

/** Model boxes matched one to one with labels at IoU >= MATCH_IOU, best pairs first. */
export function matchedCount(labels: readonly Box[], model: readonly Box[]): number {
  const pairs: Array<[number, number, number]> = [];
  labels.forEach((l, i) =>
    model.forEach((m, j) => {
      const v = iou(l, m);
      if (v >= MATCH_IOU) pairs.push([v, i, j]);
    }),
  );
  pairs.sort((p, q) => q[0] - p[0]);
  const usedL = new Set<number>();
  const usedM = new Set<number>();
  for (const [, i, j] of pairs) {
    if (usedL.has(i) || usedM.has(j)) continue;
    usedL.add(i);
    usedM.add(j);
  }
  return usedL.size;
}

export function hiveAccuracy(frames: readonly FramePair[]): HiveAccuracy {
  let insects = 0;
  let modelInsects = 0;
  let absError = 0;
  let found = 0;
  for (const f of frames) {
    insects += f.labels.length;
    modelInsects += f.model.length;
    absError += Math.abs(f.model.length - f.labels.length);
    found += matchedCount(
      f.labels.map((l) => l.box),
      f.model.map((m) => m.box),
    );
  }
  return {
    frames: frames.length,
    enough: frames.length >= MIN_FRAMES,
    insects,
    modelInsects,
    found,
    countErrorPct: insects > 0 ? (100 * absError) / insects : null,
    foundPct: insects > 0 ? (100 * found) / insects : null,
  };
}

/** The sentence the console shows, or null below MIN_FRAMES frames or without insects. */
export function accuracySentence(a: HiveAccuracy): string | null {
  if (!a.enough || a.countErrorPct === null || a.foundPct === null) return null;
  return (
    `On ${a.frames} frames you corrected at this hive, the model's counts were within ` +
    `${Math.round(a.countErrorPct)} %, and it found ${Math.round(a.foundPct)} % of the insects.`
  );
}
