/**
 * Greedy label placement for the preview: each label goes to the first spot around its box that
 * stays inside the picture and overlaps no label placed before it nor a reserved area (legend,
 * time stamp); among those spots it prefers one that hides the fewest other boxes. Labels are
 * placed in the order given (callers put the most important first), so when the picture is
 * crowded it is the least important labels that are left out.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LabelRequest {
  /** The box the label names, in picture pixels. */
  box: Rect;
  /** The label's size in picture pixels. */
  width: number;
  height: number;
}

export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Where each label goes (same order as `labels`), or null where no free spot was found. */
export function placeLabels(
  labels: readonly LabelRequest[],
  bounds: { width: number; height: number },
  reserved: readonly Rect[] = [],
): (Rect | null)[] {
  const taken: Rect[] = [...reserved];
  return labels.map((label, i) => {
    let best: Rect | null = null;
    let bestHidden = Infinity;
    for (const spot of candidates(label)) {
      if (!inside(spot, bounds) || taken.some((t) => overlaps(t, spot))) continue;
      let hidden = 0;
      labels.forEach((other, j) => {
        if (j !== i && overlaps(other.box, spot)) hidden += 1;
      });
      if (hidden < bestHidden) {
        best = spot;
        bestHidden = hidden;
        if (hidden === 0) break;
      }
    }
    if (best) taken.push(best);
    return best;
  });
}

/** Spots around a box, in order of preference: above, below, inside its top, then beside it. */
function candidates({ box, width, height }: LabelRequest): Rect[] {
  const right = box.x + box.width - width;
  const spots: [number, number][] = [
    [box.x, box.y - height],
    [box.x, box.y + box.height],
    [right, box.y - height],
    [right, box.y + box.height],
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x - width, box.y],
    [box.x + box.width, box.y + box.height - height],
    [box.x - width, box.y + box.height - height],
  ];
  return spots.map(([x, y]) => ({ x, y, width, height }));
}

function inside(r: Rect, bounds: { width: number; height: number }): boolean {
  return r.x >= 0 && r.y >= 0 && r.x + r.width <= bounds.width && r.y + r.height <= bounds.height;
}
