/**
 * Auto-zoom. The detector learnt honeybees at about one size in its input frame (the card's
 * `input.auto_zoom.insect_px`, a quantile of the training labels' sizes), and its worker / drone
 * split leans on that size: a drone is only a fifth larger than a worker. A camera nearer to the
 * entrance shows every bee larger and workers pass for drones; one further away shows them
 * smaller and they are missed. After a first pass, a picture whose honeybees are clearly off that size is
 * decoded again at the scale that brings them back to it.
 */
import type { Detection, ProductClass } from '../types.ts';
import { HONEYBEE_CLASSES } from '../types.ts';
import type { AutoZoomCard } from './model-card.ts';

/** The card's `input.auto_zoom` (model-card.ts), in camelCase. */
export type { AutoZoomCard };

/**
 * The zoom for the `detections` (boxes in source pixels) of one picture, or of a video's first
 * frames, found at `inputPxPerSourcePx` input pixels per source pixel: 1 when its honeybees are
 * near the learnt size, undefined when too few were found to judge. Only honeybees at their
 * class's threshold count, so that the low-score tail an evaluation asks for does not steer it.
 */
export function zoomFor(
  detections: readonly Detection[],
  inputPxPerSourcePx: number,
  card: AutoZoomCard,
  thresholdFor: (cls: ProductClass) => number,
): number | undefined {
  const size = insectSize(detections, inputPxPerSourcePx, card, thresholdFor);
  if (size === undefined) return undefined;
  const zoom = card.insectPx / size;
  if (zoom <= card.tolerance && zoom >= 1 / card.tolerance) return 1;
  return Math.min(card.max, Math.max(card.min, zoom));
}

/**
 * The card's `quantile` of the honeybee sizes (square root of box area, in input pixels) that
 * `zoomFor` compares with `insectPx`; undefined when fewer than `minInsects` pass their class's
 * threshold.
 */
export function insectSize(
  detections: readonly Detection[],
  inputPxPerSourcePx: number,
  card: Pick<AutoZoomCard, 'quantile' | 'minInsects'>,
  thresholdFor: (cls: ProductClass) => number,
): number | undefined {
  const sizes = detections
    .filter((d) => HONEYBEE_CLASSES.includes(d.cls) && d.score >= thresholdFor(d.cls))
    .map((d) => Math.sqrt(d.box.width * d.box.height) * inputPxPerSourcePx)
    .sort((a, b) => a - b);
  if (sizes.length < card.minInsects) return undefined;
  const size = quantile(sizes, card.quantile);
  return size > 0 ? size : undefined;
}

/** The `q` quantile of ascending `sorted` values, interpolated between the nearest two. */
export function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}
