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

/** A polygon drawn by hand has a handful of corners; more is a mistake or abuse. */
export const MAX_POLYGON_POINTS = 32;

/**
 * Reads a polygon: a JSON array of 3 to 32 [x, y] points, frame-relative, making a simple
 * polygon (its edges meet only where consecutive edges share a corner) that encloses an area.
 * A crossed one (a bow tie) has no one inside: the even-odd rule would count a bee in one lobe
 * as inside and in the gap between the lobes as outside. Throws a RangeError naming what is
 * wrong, for a usage message; the server and the CLI both read polygons here.
 */
export function parseEntrancePolygon(value: unknown): Entrance {
  const ok =
    Array.isArray(value) &&
    value.every((p) => Array.isArray(p) && p.length === 2 && p.every(inUnit));
  if (!ok || value.length < 3) {
    throw new RangeError(
      'an entrance polygon is a JSON array of at least three [x, y] points from 0 to 1',
    );
  }
  if (value.length > MAX_POLYGON_POINTS)
    throw new RangeError(`an entrance polygon has at most ${MAX_POLYGON_POINTS} points`);
  const points = (value as [number, number][]).map(([x, y]): Point => [x, y]);
  const problem = polygonProblem(points);
  if (problem) throw new RangeError(problem);
  return { kind: 'polygon', points };
}

const at = ([x, y]: Point) => `(${+x.toFixed(3)}, ${+y.toFixed(3)})`;
/** Below this a cross product counts as zero (coordinates are 0-1). */
const EPSILON = 1e-12;

function cross(o: Point, a: Point, b: Point): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

function orientation(o: Point, a: Point, b: Point): number {
  const c = cross(o, a, b);
  return Math.abs(c) < EPSILON ? 0 : Math.sign(c);
}

/** `p`, on the line through a and b, lies on the segment between them. */
function within(a: Point, b: Point, p: Point): boolean {
  return (
    Math.min(a[0], b[0]) <= p[0] &&
    p[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= p[1] &&
    p[1] <= Math.max(a[1], b[1])
  );
}

/** The closed segments ab and cd share a point (crossing, touching or overlapping). */
function segmentsMeet(a: Point, b: Point, c: Point, d: Point): boolean {
  const o1 = orientation(a, b, c);
  const o2 = orientation(a, b, d);
  const o3 = orientation(c, d, a);
  const o4 = orientation(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && within(a, b, c)) ||
    (o2 === 0 && within(a, b, d)) ||
    (o3 === 0 && within(c, d, a)) ||
    (o4 === 0 && within(c, d, b))
  );
}

/** Why the points make no simple polygon with an area, or null when they do. */
function polygonProblem(points: readonly Point[]): string | null {
  const n = points.length;
  const next = (i: number) => points[(i + 1) % n]!;
  for (let i = 0; i < n; i++) {
    if (Math.hypot(next(i)[0] - points[i]![0], next(i)[1] - points[i]![1]) < 1e-9)
      return `the entrance polygon has the corner ${at(points[i]!)} twice in a row`;
  }
  // All on one line: every pair of edges would fold back, so say what it is.
  const first = points[0]!;
  const far = points.reduce((f, p) =>
    Math.hypot(p[0] - first[0], p[1] - first[1]) > Math.hypot(f[0] - first[0], f[1] - first[1])
      ? p
      : f,
  );
  const length = Math.hypot(far[0] - first[0], far[1] - first[1]);
  if (points.every((p) => Math.abs(cross(first, far, p)) / length < 1e-6))
    return 'the entrance polygon is flat: its points lie on one line';
  for (let i = 0; i < n; i++) {
    // Consecutive edges share a corner; they may not turn straight back along each other.
    const [a, corner, b] = [points[i]!, next(i), next(i + 1)];
    const back = (a[0] - corner[0]) * (b[0] - corner[0]) + (a[1] - corner[1]) * (b[1] - corner[1]);
    if (orientation(a, corner, b) === 0 && back > 0)
      return `the entrance polygon crosses itself: it turns back on its own edge at ${at(corner)}`;
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue; // the last edge ends where the first starts
      if (segmentsMeet(points[i]!, next(i), points[j]!, next(j)))
        return (
          `the entrance polygon crosses itself: the edge from ${at(points[i]!)} to ${at(next(i))} ` +
          `meets the edge from ${at(points[j]!)} to ${at(next(j))}`
        );
    }
  }
  if (Math.abs(polygonArea(points)) < 1e-6)
    return 'the entrance polygon is flat: it encloses almost no area';
  return null;
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

/** Distance from `p` to the segment ab, in the units of its points. */
export function segmentDistance(p: Point, a: Point, b: Point): number {
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
