/**
 * Fits a location's calibration on its corrected frames, leave one frame out (issue 58).
 *
 * - Zoom: from the corrected boxes' sizes, as auto-zoom judges it from detections
 *   (`detection/zoom.ts`): the card's quantile of the honeybee sizes in the detector's input at
 *   zoom 1, against the size it learnt (`insect_px`), snapped to a grid of quarter octaves so
 *   that detections can be cached per zoom.
 * - Honeybee threshold: the score, on a grid, with the lowest pooled count error over the frames
 *   at that zoom; ties go to the card's own.
 * - Pollen and drone thresholds: only where, at the honeybee threshold, the frames count that
 *   type off by at least MIN_TYPE_BIAS boxes and a per-type threshold removes at least that much
 *   of the type's and the total's error together.
 *
 * Leave one frame out: each frame is scored with the parameters fitted on the others alone, so
 * the gain shown is never the frames grading themselves. The gain counts when it is at least
 * twice its standard error over the frames (the noise); inside it, the calibration is not applied.
 *
 * Pure: the detector's raw (low-threshold) detections come from `detectionsAt`, which the
 * caller fills beforehand for every zoom `zoomsToDetect` lists.
 */
import { HONEYBEE_CLASSES } from '../types.ts';
import type { Box, Detection, ProductClass } from '../types.ts';
import { quantile } from '../detection/zoom.ts';
import type { AutoZoomCard } from '../detection/zoom.ts';
import { calibratedThresholds } from './calibration.ts';
import type { CalibrationGain, CalibrationThresholds, ClassThresholds } from './calibration.ts';

/** Fewest corrected frames, and the files they must come from, a calibration is fitted on. */
export const MIN_CALIBRATION_FRAMES = 5;
export const MIN_CALIBRATION_FILES = 2;
/** The honeybee thresholds tried. */
export const THRESHOLD_GRID: readonly number[] = Array.from({ length: 27 }, (_, i) =>
  round(0.05 + i * 0.025),
);
/** Per-type count bias (boxes over the frames) a pollen or drone threshold must answer. */
export const MIN_TYPE_BIAS = 2;
/** The zooms a calibration may choose: quarter octaves from 1/2 to 2. */
export const ZOOM_GRID: readonly number[] = Array.from({ length: 9 }, (_, i) =>
  round(2 ** ((i - 4) / 4)),
);

export interface CalibrationFrame {
  /** The file the frame is a still of (frames of one file are near-duplicates). */
  file: string;
  /** The corrected boxes, in source pixels; `cls` may be the generic 'honeybee'. */
  truth: ReadonlyArray<{ cls: ProductClass | 'honeybee'; box: Box }>;
  /** Detector input pixels per source pixel at zoom 1 (`inputSizeFor(w, h).width / w`). */
  inputScale: number;
}

export interface FitInput {
  frames: readonly CalibrationFrame[];
  /** The card's thresholds (`detector.scoreThresholds()`). */
  card: ClassThresholds;
  /** The card's auto-zoom; without one the zoom is left alone (null). */
  autoZoom: AutoZoomCard | undefined;
  /** The product's detections without a calibration (auto-zoom, low threshold), per frame. */
  uncalibrated: ReadonlyArray<readonly Detection[]>;
  /** Raw low-threshold detections of frame `i` decoded at `zoom` (null: as `uncalibrated`). */
  detectionsAt: (i: number, zoom: number | null) => readonly Detection[];
}

export interface FittedParameters {
  zoom: number | null;
  thresholds: CalibrationThresholds;
}

export interface CalibrationFit extends FittedParameters {
  frames: number;
  files: number;
  gain: CalibrationGain;
  /** Per frame: corrected insects, and the counts without and with (fitted on the others). */
  perFrame: Array<{ truth: number; uncalibrated: number; calibrated: number }>;
}

export class CalibrationInputError extends Error {
  override name = 'CalibrationInputError';
}

/** Why these frames cannot be calibrated on, or null when they can. */
export function calibrationShortfall(
  frames: readonly Pick<CalibrationFrame, 'file'>[],
): string | null {
  const files = new Set(frames.map((f) => f.file)).size;
  if (frames.length < MIN_CALIBRATION_FRAMES || files < MIN_CALIBRATION_FILES) {
    return (
      `A calibration needs at least ${MIN_CALIBRATION_FRAMES} corrected frames from at least ` +
      `${MIN_CALIBRATION_FILES} files; there are ${frames.length} from ${files}.`
    );
  }
  return null;
}

/** The zoom the corrected boxes of `frames` call for, or null with too few honeybees to judge. */
export function zoomFromTruth(
  frames: readonly CalibrationFrame[],
  autoZoom: AutoZoomCard | undefined,
): number | null {
  if (!autoZoom) return null;
  const sizes = frames
    .flatMap((f) =>
      f.truth
        .filter((t) => t.cls === 'honeybee' || HONEYBEE_CLASSES.includes(t.cls))
        .map((t) => Math.sqrt(t.box.width * t.box.height) * f.inputScale),
    )
    .filter((s) => s > 0)
    .sort((a, b) => a - b);
  if (sizes.length < autoZoom.minInsects) return null;
  const wanted = autoZoom.insectPx / quantile(sizes, autoZoom.quantile);
  const clamped = Math.min(autoZoom.max, Math.max(autoZoom.min, wanted));
  let best = 1;
  for (const z of ZOOM_GRID) {
    if (Math.abs(Math.log(z / clamped)) < Math.abs(Math.log(best / clamped))) best = z;
  }
  return best;
}

/** Every (frame, zoom) pair `fitCalibration` will ask `detectionsAt` for. */
export function zoomsToDetect(
  frames: readonly CalibrationFrame[],
  autoZoom: AutoZoomCard | undefined,
): Array<{ frame: number; zoom: number }> {
  const wanted = new Set<string>();
  const add = (frame: number, zoom: number | null) => {
    if (zoom !== null) wanted.add(`${frame}:${zoom}`);
  };
  const all = zoomFromTruth(frames, autoZoom);
  frames.forEach((_, i) => add(i, all));
  frames.forEach((_, out) => {
    const zoom = zoomFromTruth(without(frames, out), autoZoom);
    frames.forEach((_, i) => {
      if (i !== out) add(i, zoom);
    });
    add(out, zoom);
  });
  return [...wanted].map((key) => {
    const [frame, zoom] = key.split(':');
    return { frame: Number(frame), zoom: Number(zoom) };
  });
}

/** Fits on all the frames and measures the gain leave one frame out. */
export function fitCalibration(input: FitInput): CalibrationFit {
  const { frames } = input;
  const shortfall = calibrationShortfall(frames);
  if (shortfall) throw new CalibrationInputError(shortfall);
  if (input.uncalibrated.length !== frames.length) {
    throw new CalibrationInputError('One set of uncalibrated detections is needed per frame.');
  }
  const all = frames.map((_, i) => i);
  const fitted = fitParameters(input, all);
  const perFrame = all.map((out) => {
    const params = fitParameters(
      input,
      all.filter((i) => i !== out),
    );
    const truth = frames[out]!.truth.length;
    const calibrated = countAt(
      input.detectionsAt(out, params.zoom),
      calibratedThresholds(input.card, params.thresholds),
    );
    const uncalibrated = countAt(input.uncalibrated[out]!, input.card);
    return { truth, uncalibrated, calibrated };
  });
  return {
    ...fitted,
    frames: frames.length,
    files: new Set(frames.map((f) => f.file)).size,
    gain: gainOf(perFrame),
    perFrame,
  };
}

/** The parameters fitted on the frames `on` alone. */
export function fitParameters(input: FitInput, on: readonly number[]): FittedParameters {
  const zoom = zoomFromTruth(
    on.map((i) => input.frames[i]!),
    input.autoZoom,
  );
  const frames = on.map((i) => ({
    detections: input.detectionsAt(i, zoom),
    truth: input.frames[i]!.truth,
  }));
  const cardHoneybee = input.card.perClass.bee ?? input.card.score;
  const totalError = (thresholds: CalibrationThresholds) => {
    const at = calibratedThresholds(input.card, thresholds);
    return frames.reduce((e, f) => e + Math.abs(countAt(f.detections, at) - f.truth.length), 0);
  };
  const honeybee = argmin(THRESHOLD_GRID, (t) => totalError({ honeybee: t }), cardHoneybee);
  const thresholds: CalibrationThresholds = { honeybee };
  for (const type of ['pollen', 'drone'] as const) {
    const typeError = (t: CalibrationThresholds) => {
      const at = calibratedThresholds(input.card, t);
      return frames.reduce(
        (e, f) =>
          e +
          Math.abs(countAt(f.detections, at, type) - f.truth.filter((b) => b.cls === type).length),
        0,
      );
    };
    const both = (t: CalibrationThresholds) => typeError(t) + totalError(t);
    if (typeError(thresholds) < MIN_TYPE_BIAS) continue;
    const best = argmin(THRESHOLD_GRID, (t) => both({ ...thresholds, [type]: t }), honeybee);
    if (both(thresholds) - both({ ...thresholds, [type]: best }) >= MIN_TYPE_BIAS) {
      thresholds[type] = best;
    }
  }
  return { zoom, thresholds };
}

/** Detections (of `cls` alone, when given) at or above their class's threshold. */
export function countAt(
  detections: readonly Detection[],
  thresholds: ClassThresholds,
  cls?: ProductClass,
): number {
  let n = 0;
  for (const d of detections) {
    if (cls !== undefined && d.cls !== cls) continue;
    if (d.score >= (thresholds.perClass[d.cls] ?? thresholds.score)) n++;
  }
  return n;
}

/** Pooled count errors without and with, and whether the gain is beyond twice its standard error. */
export function gainOf(
  perFrame: ReadonlyArray<{ truth: number; uncalibrated: number; calibrated: number }>,
): CalibrationGain {
  const insects = perFrame.reduce((n, f) => n + f.truth, 0);
  const pct = (boxes: number) => (insects > 0 ? (100 * boxes) / insects : 0);
  const before = perFrame.map((f) => Math.abs(f.uncalibrated - f.truth));
  const after = perFrame.map((f) => Math.abs(f.calibrated - f.truth));
  const gains = before.map((b, i) => b - after[i]!);
  const n = gains.length;
  const mean = gains.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(gains.reduce((a, g) => a + (g - mean) ** 2, 0) / (n - 1)) : Infinity;
  // Twice the standard error of the summed gain, as a share of the insects.
  const noise = pct(2 * n * (sd / Math.sqrt(n)));
  const gain = pct(n * mean);
  return {
    frames: n,
    uncalibrated_count_error_pct: round(pct(sum(before)), 2),
    calibrated_count_error_pct: round(pct(sum(after)), 2),
    noise_pct: round(noise, 2),
    significant: insects > 0 && gain > 0 && gain > noise,
  };
}

function without<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, i) => i !== index);
}

/** The grid value with the lowest cost; among equals, the one nearest `prefer`. */
function argmin(grid: readonly number[], cost: (v: number) => number, prefer: number): number {
  let best = grid[0]!;
  let bestCost = Infinity;
  for (const v of grid) {
    const c = cost(v);
    if (c < bestCost || (c === bestCost && Math.abs(v - prefer) < Math.abs(best - prefer))) {
      best = v;
      bestCost = c;
    }
  }
  return best;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function round(v: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
