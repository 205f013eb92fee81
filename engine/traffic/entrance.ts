/**
 * A hive entrance in frame-relative coordinates (0-1 on both axes, y down, as on screen): a line
 * bees cross, or a polygon they vanish into. Everything here is geometry on one point; the
 * counting lives in `count.ts`.
 *
 * Side convention for a line: the hive side is on the left as you walk from (x1,y1) to (x2,y2)
 * on the picture. A line drawn left to right (`0,0.5,1,0.5`) has the hive above it; give the
 * points the other way round to put the hive below.
 */
import type { Entrance, Point } from '../types.ts';

/** Where a point lies relative to the entrance, with the hysteresis band between the sides. */
export type EntranceSide = 'hive' | 'field' | 'band' | 'away';

/**
 * Reads `x1,y1,x2,y2` (a line). Throws a RangeError naming what is wrong, for a usage message.
 */
export function parseEntranceLine(text: string): Entrance {
  const parts = text.split(',').map((s) => s.trim());
  const values = parts.map(Number);
  if (parts.length !== 4 || parts.some((s) => s === '') || !values.every(inUnit)) {
    throw new RangeError(
      'an entrance line is four numbers from 0 to 1, x1,y1,x2,y2 (frame-relative)',
    );
  }
  const [x1, y1, x2, y2] = values as [number, number, number, number];
  if (Math.hypot(x2 - x1, y2 - y1) < 1e-3) {
    throw new RangeError('an entrance line needs two different points');
  }
  return {
    kind: 'line',
    points: [
      [x1, y1],
      [x2, y2],
    ],
  };
}

/** Reads a polygon: a JSON array of at least three [x, y] points, frame-relative. */
export function parseEntrancePolygon(value: unknown): Entrance {
  const ok =
    Array.isArray(value) &&
    value.length >= 3 &&
    value.every((p) => Array.isArray(p) && p.length === 2 && p.every(inUnit));
  if (!ok) {
    throw new RangeError(
      'an entrance polygon is a JSON array of at least three [x, y] points from 0 to 1',
    );
  }
  const points = (value as [number, number][]).map(([x, y]): Point => [x, y]);
  if (Math.abs(polygonArea(points)) < 1e-6) throw new RangeError('the entrance polygon is flat');
  return { kind: 'polygon', points };
}

function inUnit(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;
}

function polygonArea(points: readonly Point[]): number {
  let sum = 0;
  points.forEach(([x, y], i) => {
    const [nx, ny] = points[(i + 1) % points.length]!;
    sum += x * ny - nx * y;
  });
  return sum / 2;
}

/**
 * Distance from the entrance, negative on the hive side (inside a polygon), in frame-relative
 * units; `undefined` for a line when the point is beside its ends (more than `margin` past
 * them), where which side it is on says nothing about crossing.
 */
export function entranceDistance(entrance: Entrance, p: Point, margin: number): number | undefined {
  if (entrance.kind === 'line') {
    const [[x1, y1], [x2, y2]] = entrance.points as [Point, Point];
    const dx = x2 - x1;
    const dy = y2 - y1;
    const length = Math.hypot(dx, dy);
    const along = ((p[0] - x1) * dx + (p[1] - y1) * dy) / length;
    if (along < -margin || along > length + margin) return undefined;
    // Cross product: negative on the walker's left as seen on screen (y grows downwards).
    return (dx * (p[1] - y1) - dy * (p[0] - x1)) / length;
  }
  const edge = Math.min(
    ...entrance.points.map((a, i) =>
      segmentDistance(p, a, entrance.points[(i + 1) % entrance.points.length]!),
    ),
  );
  return contains(entrance.points, p) ? -edge : edge;
}

/**
 * The side a point is on. A line has a band `margin` wide on each side; a polygon's hive side is
 * anywhere inside it (a bee that reached the entrance is there, however small the polygon) and
 * its band lies outside, `margin` wide.
 */
export function entranceSide(entrance: Entrance, p: Point, margin: number): EntranceSide {
  const d = entranceDistance(entrance, p, margin);
  if (d === undefined) return 'away';
  if (entrance.kind === 'polygon') return d <= 0 ? 'hive' : d > margin ? 'field' : 'band';
  return d < -margin ? 'hive' : d > margin ? 'field' : 'band';
}

function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t =
    len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** Even-odd ray casting. */
function contains(points: readonly Point[], [x, y]: Point): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i]!;
    const [xj, yj] = points[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
