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

/** Looks at every `step`-th pixel on both axes (default 2: a quarter of a 1152x320 frame). */
export function frameLook(frame: RawFrame, step = 2): FrameLook {
  const { width, height, data } = frame;
  const luma = (x: number, y: number): number => {
    const i = (y * width + x) * 3;
    return 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
  };
  let n = 0;
  let sum = 0;
  let sumSq = 0;
  let clipped = 0;
  let lapSum = 0;
  for (let y = 1; y < height - 1; y += step) {
    for (let x = 1; x < width - 1; x += step) {
      const c = luma(x, y);
      n++;
      sum += c;
      sumSq += c * c;
      if (c <= 5 || c >= 250) clipped++;
      lapSum += Math.abs(4 * c - luma(x - 1, y) - luma(x + 1, y) - luma(x, y - 1) - luma(x, y + 1));
    }
  }
  if (n === 0) return { brightness: 0, clippedShare: 0, sharpness: 0 };
  const mean = sum / n;
  const sd = Math.sqrt(Math.max(0, sumSq / n - mean * mean));
  return {
    brightness: mean / 255,
    clippedShare: clipped / n,
    sharpness: lapSum / n / Math.max(sd, 1),
  };
}
