/**
 * Counting: detections per class in a frame, tracks per class in a video, and how much of the
 * frame honeybees cover. A class the model cannot detect is `null` ("not available"), never 0.
 */
import { HONEYBEE_CLASSES, PRODUCT_CLASSES } from '../types.ts';
import type { Box, ClassCounts, Detection, ProductClass, Track } from '../types.ts';

function emptyCounts(available: readonly ProductClass[]): ClassCounts {
  const counts = {} as ClassCounts;
  for (const cls of PRODUCT_CLASSES) counts[cls] = available.includes(cls) ? 0 : null;
  return counts;
}

function countBy(
  items: readonly { cls: ProductClass }[],
  available: readonly ProductClass[],
): ClassCounts {
  const counts = emptyCounts(available);
  for (const { cls } of items) {
    const current = counts[cls];
    if (current !== null) counts[cls] = current + 1;
  }
  return counts;
}

/** Detections per class in one frame (or one picture). */
export function countFrame(
  detections: readonly Detection[],
  available: readonly ProductClass[],
): ClassCounts {
  return countBy(detections, available);
}

/** Unique insects per class in a video: one per (confirmed) track, by the track's class. */
export function countTracks(
  tracks: readonly Track[],
  available: readonly ProductClass[],
): ClassCounts {
  return countBy(tracks, available);
}

/**
 * A video's unique insects per class: its tracks, made to agree with its frames. No class can
 * have fewer individuals than one frame shows of it at once, yet a track takes one class for all
 * its hits, so three drones seen together whose tracks were mostly typed worker read "1 drone
 * (unique)" beside a frame of 3. Where a honeybee type is below its peak, tracks are re-typed to
 * it from the honeybee types with more tracks than their own peak (the largest surplus first),
 * which keeps the honeybee total; only what no surplus covers is added. Hornets and wasps are
 * raised to their peak.
 */
export function uniqueCounts(
  tracks: readonly Track[],
  frames: readonly { counts: ClassCounts }[],
  available: readonly ProductClass[],
): ClassCounts {
  const counts = countTracks(tracks, available);
  const peak = (cls: ProductClass) => Math.max(0, ...frames.map((f) => f.counts[cls] ?? 0));
  for (const cls of PRODUCT_CLASSES) {
    const n = counts[cls];
    if (n === null || n >= peak(cls)) continue;
    let need = peak(cls) - n;
    counts[cls] = peak(cls);
    if (HONEYBEE_CLASSES.includes(cls)) {
      const donors = HONEYBEE_CLASSES.filter((d) => d !== cls && counts[d] !== null)
        .map((d) => ({ d, surplus: (counts[d] ?? 0) - peak(d) }))
        .filter(({ surplus }) => surplus > 0)
        .sort((a, b) => b.surplus - a.surplus);
      for (const { d, surplus } of donors) {
        const moved = Math.min(need, surplus);
        counts[d] = (counts[d] ?? 0) - moved;
        need -= moved;
        if (need === 0) break;
      }
    }
  }
  return counts;
}

/**
 * The on-screen figures (decisions.md section 2): honeybees (bee + pollen + drone) seen per
 * sampled frame, averaged and at their highest. They answer "how busy is the entrance", which
 * the unique-insect counts do not: one bee resting on the board for the whole clip is one
 * insect but on screen in every frame. Null for no frames.
 */
export interface OnScreen {
  meanHoneybees: number;
  peakHoneybees: number;
}

export function honeybeesOnScreen(frames: readonly { counts: ClassCounts }[]): OnScreen | null {
  if (frames.length === 0) return null;
  let sum = 0;
  let peak = 0;
  for (const { counts } of frames) {
    const n = HONEYBEE_CLASSES.reduce((s, cls) => s + (counts[cls] ?? 0), 0);
    sum += n;
    peak = Math.max(peak, n);
  }
  return { meanHoneybees: sum / frames.length, peakHoneybees: peak };
}

/**
 * Percent (0-100) of the frame covered by honeybee boxes (bee, pollen, drone). The exact area of
 * the union, so overlapping bees are not counted twice (a plain sum would pass 100 % on a
 * crowded landing board); boxes are clipped to the frame. Sweep over x slabs: O(n^2 log n),
 * nothing for the few hundred boxes a frame holds.
 */
export function beeCoverage(
  detections: readonly Detection[],
  width: number,
  height: number,
): number {
  if (!(width > 0 && height > 0)) return 0;
  const boxes: Box[] = [];
  for (const d of detections) {
    if (!HONEYBEE_CLASSES.includes(d.cls)) continue;
    const x1 = Math.max(0, d.box.x);
    const y1 = Math.max(0, d.box.y);
    const x2 = Math.min(width, d.box.x + d.box.width);
    const y2 = Math.min(height, d.box.y + d.box.height);
    if (x2 > x1 && y2 > y1) boxes.push({ x: x1, y: y1, width: x2 - x1, height: y2 - y1 });
  }
  const percent = (unionArea(boxes) / (width * height)) * 100;
  return Math.min(100, Math.max(0, percent));
}

/** Area of the union of boxes. */
export function unionArea(boxes: readonly Box[]): number {
  if (boxes.length === 0) return 0;
  const xs = [...new Set(boxes.flatMap((b) => [b.x, b.x + b.width]))].sort((a, b) => a - b);
  let area = 0;
  for (let i = 0; i + 1 < xs.length; i++) {
    const left = xs[i]!;
    const right = xs[i + 1]!;
    const spans = boxes
      .filter((b) => b.x <= left && b.x + b.width >= right)
      .map((b) => [b.y, b.y + b.height] as const)
      .sort((a, b) => a[0] - b[0]);
    let covered = 0;
    let start = 0;
    let end = -Infinity;
    for (const [y1, y2] of spans) {
      if (y1 > end) {
        if (end > start) covered += end - start;
        start = y1;
        end = y2;
      } else if (y2 > end) end = y2;
    }
    if (end > start) covered += end - start;
    area += (right - left) * covered;
  }
  return area;
}
