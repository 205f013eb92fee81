/**
 * Analysing the entrance at a higher rate than the whole frame (issue 56, item 4): the part of
 * the frame a crossing happens in is the entrance and a few bee lengths around it, so between two
 * whole-frame samples only that crop needs looking at. This module is the crop's geometry and
 * the mixing of whole-frame and crop detections; experiment 016 decides the rate.
 */
import type { Detection, Entrance } from '../types.ts';

/**
 * How far the crop reaches past the entrance, in bee lengths: the board the benchmark's bees
 * walk, guard and take off on before going in (`lab/entrance-sim`: up to 3-4 bee lengths), the
 * same reach as `ENTRANCE_NEAR_BEE_LENGTHS`.
 */
export const ENTRANCE_CROP_BEE_LENGTHS = 4;

/** A rectangle in whole-frame pixels (integers). */
export interface PixelRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The entrance's bounding box padded by `padBeeLengths` bee lengths on every side, clamped to the
 * frame, widened to whole pixels (even ones, as video filters crop chroma in pairs).
 */
export function entranceCrop(
  entrance: Entrance,
  frame: { width: number; height: number },
  beeLengthPx: number,
  padBeeLengths = ENTRANCE_CROP_BEE_LENGTHS,
): PixelRect {
  const { width, height } = frame;
  const xs = entrance.points.map(([x]) => x * width);
  const ys = entrance.points.map(([, y]) => y * height);
  const pad = Math.max(0, padBeeLengths * beeLengthPx);
  const even = (v: number, round: (v: number) => number) => 2 * round(v / 2);
  const x0 = Math.max(0, even(Math.min(...xs) - pad, Math.floor));
  const y0 = Math.max(0, even(Math.min(...ys) - pad, Math.floor));
  const x1 = Math.min(width, even(Math.max(...xs) + pad, Math.ceil));
  const y1 = Math.min(height, even(Math.max(...ys) + pad, Math.ceil));
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

/** The share of the frame's area the crop covers (what its detection costs, roughly). */
export function cropShare(crop: PixelRect, frame: { width: number; height: number }): number {
  return (crop.width * crop.height) / (frame.width * frame.height);
}

/**
 * Detections made on the crop (coordinates relative to it) moved into whole-frame pixels.
 */
export function fromCrop(detections: readonly Detection[], crop: PixelRect): Detection[] {
  return detections.map((d) => ({ ...d, box: { ...d.box, x: d.box.x + crop.x, y: d.box.y + crop.y } }));
}

/**
 * Detections the crop sees whole: a box that touches an edge of the crop that is not also the
 * frame's is a bee cut in two by the crop, whose box would jump when the next whole frame shows
 * it all; it is left to the whole frames, as is everything outside the crop.
 */
export function withinCrop(
  detections: readonly Detection[],
  crop: PixelRect,
  frame: { width: number; height: number },
  tolerancePx = 1,
): Detection[] {
  const left = crop.x > 0 ? crop.x + tolerancePx : -Infinity;
  const top = crop.y > 0 ? crop.y + tolerancePx : -Infinity;
  const right = crop.x + crop.width < frame.width ? crop.x + crop.width - tolerancePx : Infinity;
  const bottom = crop.y + crop.height < frame.height ? crop.y + crop.height - tolerancePx : Infinity;
  return detections.filter(
    ({ box }) =>
      box.x >= left && box.y >= top && box.x + box.width <= right && box.y + box.height <= bottom,
  );
}

/** Whole-frame samples among the entrance-rate ones: every `step`-th, from the first. */
export function entranceStep(sampleFps: number, entranceFps: number): number {
  const step = Math.round(entranceFps / sampleFps);
  if (step < 1 || Math.abs(step * sampleFps - entranceFps) > 1e-9) {
    throw new RangeError(
      `the entrance rate (${entranceFps} fps) is a whole multiple of the sample rate (${sampleFps} fps)`,
    );
  }
  return step;
}
