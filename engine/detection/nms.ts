/**
 * Greedy non-maximum suppression, per class: the best-scoring box of a class suppresses every
 * other box of that class overlapping it by more than `iouThreshold` (one for every class, or
 * the class's own).
 */
import type { Box, Detection, ProductClass } from '../types.ts';

/** Intersection over union of two boxes, 0 when they do not overlap. */
export function iou(a: Box, b: Box): number {
  const iw = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const ih = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (iw <= 0 || ih <= 0) return 0;
  const inter = iw * ih;
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/** Kept detections, best score first. The input is not modified. */
export function nonMaxSuppression(
  detections: readonly Detection[],
  iouThreshold: number | ((cls: ProductClass) => number),
): Detection[] {
  const threshold = typeof iouThreshold === 'number' ? () => iouThreshold : iouThreshold;
  const sorted = [...detections].sort((a, b) => b.score - a.score);
  const kept: Detection[] = [];
  const suppressed = new Uint8Array(sorted.length);
  for (let i = 0; i < sorted.length; i++) {
    if (suppressed[i]) continue;
    const best = sorted[i]!;
    kept.push(best);
    const limit = threshold(best.cls);
    for (let j = i + 1; j < sorted.length; j++) {
      if (suppressed[j]) continue;
      const other = sorted[j]!;
      if (other.cls === best.cls && iou(best.box, other.box) > limit) suppressed[j] = 1;
    }
  }
  return kept;
}
