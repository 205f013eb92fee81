/**
 * How a decoded frame looks, cheaply: brightness, clipped pixels and sharpness of its luma,
 * sampled on a grid. The quality grade (`grade.ts`) compares them with the training footage's;
 * they are measured on the frame the detector saw, so a blurred 4K frame shrunk to the
 * detector's size is judged as sharp as the detector finds it.
 */
import type { RawFrame } from '../types.ts';

export interface FrameLook {
  /** Mean luma, 0-1. */
  brightness: number;
  /** Share of sampled pixels at black or white (luma <= 5 or >= 250 of 255). */
  clippedShare: number;
  /**
   * Mean absolute Laplacian of luma over the luma's standard deviation: contrast-normalised, so
   * relighting leaves it alone while blur and low-resolution upscaling lower it.
   */
  sharpness: number;
}

/**
 * Looks at every `step`-th pixel on both axes (default 4: a sixteenth of the frame, 1.5-3 ms for
 * an 800x448 frame on a loaded machine, against 5-9 ms at step 2, where the thresholds were
 * chosen: on hive frames and shifted views the two agree within 4 %).
 */
export function frameLook(frame: RawFrame, step = 4): FrameLook {
  const { width, height, data } = frame;
  const row = width * 3;
  // Luma (BT.601) in integer arithmetic, 0-255 scaled by 256.
  const luma = (i: number): number => 77 * data[i]! + 150 * data[i + 1]! + 29 * data[i + 2]!;
  let n = 0;
  let sum = 0;
  let sumSq = 0;
  let clipped = 0;
  let lapSum = 0;
  for (let y = 1; y < height - 1; y += step) {
    for (let x = 1; x < width - 1; x += step) {
      const i = y * row + x * 3;
      const c = luma(i);
      n++;
      sum += c;
      sumSq += c * c;
      if (c <= 5 * 256 || c >= 250 * 256) clipped++;
      lapSum += Math.abs(4 * c - luma(i - 3) - luma(i + 3) - luma(i - row) - luma(i + row));
    }
  }
  if (n === 0) return { brightness: 0, clippedShare: 0, sharpness: 0 };
  const mean = sum / n;
  const sd = Math.sqrt(Math.max(0, sumSq / n - mean * mean));
  return {
    brightness: mean / 256 / 255,
    clippedShare: clipped / n,
    sharpness: lapSum / n / Math.max(sd, 256),
  };
}
