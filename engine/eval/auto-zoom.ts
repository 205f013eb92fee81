/**
 * How many of an evaluation's images auto-zoom decoded again (`detection/zoom.ts`), and at
 * what zoom. A dataset from another camera is scored on those second passes; a researcher
 * reading its figures should know that its bees were off the size the detector learnt.
 */
import { quantile } from '../detection/zoom.ts';

export interface AutoZoomSummary {
  /** Images detected again at a zoom other than 1. */
  zoomed: number;
  /** Smallest, median and largest of those zooms; null when none was zoomed. */
  min: number | null;
  median: number | null;
  max: number | null;
}

export function summariseZooms(zooms: readonly number[]): AutoZoomSummary {
  const zoomed = zooms.filter((z) => z !== 1).sort((a, b) => a - b);
  if (zoomed.length === 0) return { zoomed: 0, min: null, median: null, max: null };
  return {
    zoomed: zoomed.length,
    min: zoomed[0]!,
    median: quantile(zoomed, 0.5),
    max: zoomed[zoomed.length - 1]!,
  };
}

/** The report's note on the zoomed images, or undefined when none was. */
export function autoZoomNote(summary: AutoZoomSummary, images: number): string | undefined {
  if (summary.zoomed === 0) return undefined;
  const x = (z: number | null) => `${(z ?? 1).toFixed(2)}x`;
  const range =
    summary.min === summary.max
      ? `at ${x(summary.min)}`
      : `at ${x(summary.min)} to ${x(summary.max)}, median ${x(summary.median)}`;
  return `Auto-zoom detected ${summary.zoomed} of ${images} images again ${range}: their honeybees were off the size the detector learnt.`;
}
