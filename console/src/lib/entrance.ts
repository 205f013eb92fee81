// Geometry for the entrance editor (issue 43), pure so it is testable. Points are frame-relative
// (0-1, y down), as the server and the engine store them. A line's hive side is on the left
// walking from its first point to its second, as seen on the picture (engine/traffic/entrance.ts).

import type { Entrance, EntrancePoint } from '../../../contract/schemas/common.ts';

export type { Entrance, EntrancePoint };

/** A level line across the middle with the hive above it: a start the user drags into place. */
export const DEFAULT_LINE: Entrance = {
  kind: 'line',
  points: [
    [0.2, 0.5],
    [0.8, 0.5],
  ],
};

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
/** Three decimals: a thousandth of the frame is finer than anyone can drag. */
const tidy = (v: number) => Math.round(clamp01(v) * 1000) / 1000;

export function movePoint(entrance: Entrance, index: number, to: EntrancePoint): Entrance {
  return {
    ...entrance,
    points: entrance.points.map((p, i) => (i === index ? [tidy(to[0]), tidy(to[1])] : p)),
  };
}

/** Nudges one point by a step (arrow keys), staying inside the frame. */
export function nudgePoint(entrance: Entrance, index: number, dx: number, dy: number): Entrance {
  const p = entrance.points[index];
  return p ? movePoint(entrance, index, [p[0] + dx, p[1] + dy]) : entrance;
}

/** The same line with the hive on its other side. */
export function swapSides(entrance: Entrance): Entrance {
  return { ...entrance, points: [...entrance.points].reverse() };
}

/** A polygon (a proposal's box) as a line across its middle, for the line editor. */
export function lineAcross(entrance: Entrance): Entrance {
  if (entrance.kind === 'line') return entrance;
  const xs = entrance.points.map((p) => p[0]);
  const ys = entrance.points.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const midY = (y0 + y1) / 2;
  // Bees vanish into the box: the hive lies above a line across its middle, drawn left to right.
  return {
    kind: 'line',
    points: [
      [tidy(x0), tidy(midY)],
      [tidy(x1), tidy(midY)],
    ],
  };
}

/**
 * Where to print "Hive" and "Field" for a line: a short way off its middle on each side, in
 * frame-relative units (`offset` of the frame's smaller side, corrected for the aspect ratio so
 * the labels sit at the same distance on screen).
 */
export function sideMarkers(
  entrance: Entrance,
  aspect: number,
  offset = 0.07,
): { hive: EntrancePoint; field: EntrancePoint } | null {
  if (entrance.kind !== 'line') return null;
  const [[x1, y1], [x2, y2]] = entrance.points as [EntrancePoint, EntrancePoint];
  // Work in screen proportions (x scaled by the aspect ratio) so "perpendicular" is true.
  const dx = (x2 - x1) * aspect;
  const dy = y2 - y1;
  const length = Math.hypot(dx, dy);
  if (length === 0) return null;
  // The walker's left on screen (y down) is (dy, -dx).
  const nx = dy / length;
  const ny = -dx / length;
  const mx = (x1 + x2) / 2;
  const my = (y1 + y2) / 2;
  return {
    hive: [clamp01(mx + (nx * offset) / aspect), clamp01(my + ny * offset)],
    field: [clamp01(mx - (nx * offset) / aspect), clamp01(my - ny * offset)],
  };
}

export function sameEntrance(a: Entrance | null, b: Entrance | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function describeEntrance(entrance: Entrance | null): string {
  if (!entrance) return 'No entrance set';
  const pt = ([x, y]: EntrancePoint) => `(${Math.round(x * 100)}%, ${Math.round(y * 100)}%)`;
  return entrance.kind === 'line'
    ? `Line from ${pt(entrance.points[0]!)} to ${pt(entrance.points[1]!)}`
    : `Area of ${entrance.points.length} corners`;
}
