/**
 * A hornet is larger than the honeybees beside it (docs/experiments/026-hornet-size-check.md):
 * an Asian hornet worker is 25-30 mm long, a honeybee worker 12-15 mm. A box typed hornet that is
 * not clearly larger than the frame's shown honeybees is a honeybee the network mistyped, most
 * often one seen against a background unlike the entrance board.
 */
import { HONEYBEE_CLASSES } from '../types.ts';
import type { Detection, ProductClass } from '../types.ts';
import { makeDetection } from './detection.ts';
import { iou } from './nms.ts';

export interface HornetSizeCheck {
  minRatio: number;
  minHoneybees: number;
}

const size = (d: Detection) => Math.sqrt(d.box.width * d.box.height);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * `detections` with each too-small hornet typed as a worker bee, or dropped where it lies on a
 * shown honeybee (the same insect, found twice). Honeybees count as shown at `shownAt(cls)`;
 * frames with fewer than `minHoneybees` of them are left alone (too few to know their size).
 */
export function checkHornetSize(
  detections: readonly Detection[],
  check: HornetSizeCheck,
  shownAt: (cls: ProductClass) => number,
  overlap: number,
): Detection[] {
  const honeybees = detections.filter(
    (d) => HONEYBEE_CLASSES.includes(d.cls) && d.score >= shownAt(d.cls),
  );
  if (honeybees.length < check.minHoneybees) return [...detections];
  const smallest = check.minRatio * median(honeybees.map(size));
  const out: Detection[] = [];
  for (const d of detections) {
    if (d.cls !== 'hornet' || size(d) >= smallest) out.push(d);
    else if (!honeybees.some((bee) => iou(bee.box, d.box) > overlap)) {
      out.push(makeDetection('bee', d.score, d.box));
    }
  }
  return out;
}
