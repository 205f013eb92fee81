/**
 * How crowded a video's entrance was: honeybees detected near it per analysed frame. "Near" is
 * the entrance padded by `ENTRANCE_NEAR_BEE_LENGTHS` bee lengths, measured in pixels (a 3840x1080
 * frame is not square). That reach takes in the board the synthetic benchmark's bees walk, land,
 * guard and take off on (`lab/entrance-sim`: up to 3-4 bee lengths from the slit), so the
 * benchmark measures its clips with this same function and its precision and recall per density
 * (`confidence.ts`) apply to a real video's figure here.
 *
 * A bee's length is the median longer side of the video's honeybee boxes: a box along a bee's
 * body is as long as the bee, a turned one a little longer.
 */
import { HONEYBEE_CLASSES } from '../types.ts';
import type { Detection, Entrance, EntranceDensity, Point } from '../types.ts';
import { entranceDistance, segmentDistance } from './entrance.ts';

export const ENTRANCE_NEAR_BEE_LENGTHS = 4;

export function entranceDensity(
  frames: readonly { detections: readonly Detection[] }[],
  entrance: Entrance,
  size: { width: number; height: number },
  padBeeLengths = ENTRANCE_NEAR_BEE_LENGTHS,
): EntranceDensity {
  const honeybees = frames.map((f) => f.detections.filter((d) => HONEYBEE_CLASSES.includes(d.cls)));
  const lengths = honeybees
    .flat()
    .map((d) => Math.max(d.box.width, d.box.height))
    .sort((a, b) => a - b);
  if (frames.length === 0 || lengths.length === 0) return { meanNear: 0, peakNear: 0 };
  const beeLengthPx = lengths[Math.floor(lengths.length / 2)]!;
  const reach = padBeeLengths * beeLengthPx;
  const { width, height } = size;
  const corners = entrance.points.map(([x, y]): Point => [x * width, y * height]);
  const near = (d: Detection) =>
    pixelDistance(entrance.kind, corners, [
      d.box.x + d.box.width / 2,
      d.box.y + d.box.height / 2,
    ]) <= reach;
  const perFrame = honeybees.map((dets) => dets.filter(near).length);
  return {
    meanNear: perFrame.reduce((a, n) => a + n, 0) / perFrame.length,
    peakNear: Math.max(...perFrame),
  };
}

/** Pixels from the entrance: 0 inside a polygon, else to its nearest edge; to a line's segment. */
function pixelDistance(kind: Entrance['kind'], corners: Point[], p: Point): number {
  if (kind === 'line') return segmentDistance(p, corners[0]!, corners[1]!);
  return Math.max(0, entranceDistance({ kind, points: corners }, p, 0)!);
}
