// Geometry for the counts-over-time line chart (pure, so it is testable).

export interface Point {
  x: number;
  y: number;
}

export interface Scale {
  maxX: number;
  maxY: number;
}

export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

/** SVG path ("M x y L x y ...") for points scaled into a width x height box (y grows down). */
export function linePath(points: Point[], scale: Scale, width: number, height: number): string {
  return points
    .map((p, i) => {
      const x = scale.maxX > 0 ? (p.x / scale.maxX) * width : 0;
      const y = height - (scale.maxY > 0 ? (p.y / scale.maxY) * height : 0);
      return `${i === 0 ? 'M' : 'L'}${x.toFixed(1)} ${y.toFixed(1)}`;
    })
    .join(' ');
}

/**
 * Y-axis ticks for counts: whole numbers only (there is no half a bee), at most five, evenly
 * spaced from 0 to the first step at or above `maxY`.
 */
export function countTicks(maxY: number): number[] {
  const top = Math.max(1, Math.ceil(maxY));
  const step =
    [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000].find((s) => top / s <= 4) ??
    Math.ceil(top / 4);
  const ticks: number[] = [];
  for (let t = 0; ticks.length === 0 || ticks[ticks.length - 1]! < top; t += step) ticks.push(t);
  return ticks;
}
