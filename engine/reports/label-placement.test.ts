import { describe, expect, it } from 'vitest';
import { overlaps, placeLabels } from './label-placement.ts';
import type { Rect } from './label-placement.ts';

const bounds = { width: 400, height: 300 };

describe('placeLabels', () => {
  it('puts a lone label above its box, left-aligned', () => {
    const [spot] = placeLabels(
      [{ box: { x: 100, y: 100, width: 40, height: 30 }, width: 60, height: 16 }],
      bounds,
    );
    expect(spot).toEqual({ x: 100, y: 84, width: 60, height: 16 });
  });

  it('moves a label below its box when the box touches the top edge', () => {
    const [spot] = placeLabels(
      [{ box: { x: 100, y: 0, width: 40, height: 30 }, width: 60, height: 16 }],
      bounds,
    );
    expect(spot).toEqual({ x: 100, y: 30, width: 60, height: 16 });
  });

  it('never overlaps labels of boxes side by side, nor the reserved areas', () => {
    // Ten bees in a row, closer together than a label is wide: the first layout would stack
    // every label on its neighbour's.
    const labels = Array.from({ length: 10 }, (_, i) => ({
      box: { x: 20 + i * 30, y: 120, width: 28, height: 28 },
      width: 70,
      height: 16,
    }));
    const legend: Rect = { x: 0, y: 250, width: 150, height: 50 };
    const spots = placeLabels(labels, bounds, [legend]);
    const placed = spots.filter((s): s is Rect => s !== null);
    expect(placed.length).toBeGreaterThanOrEqual(4);
    for (const [i, a] of placed.entries()) {
      expect(overlaps(a, legend)).toBe(false);
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.y).toBeGreaterThanOrEqual(0);
      expect(a.x + a.width).toBeLessThanOrEqual(bounds.width);
      expect(a.y + a.height).toBeLessThanOrEqual(bounds.height);
      for (const b of placed.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
    }
  });

  it('leaves out the last labels when there is no room, keeping the first', () => {
    const box = { x: 0, y: 0, width: 400, height: 300 };
    const spots = placeLabels(
      [
        { box, width: 390, height: 290 },
        { box, width: 390, height: 290 },
      ],
      bounds,
    );
    expect(spots[0]).not.toBeNull();
    expect(spots[1]).toBeNull();
  });

  it('prefers a spot that hides no other box', () => {
    // Above the first box sits a second box; the label goes below instead.
    const spots = placeLabels(
      [
        { box: { x: 100, y: 100, width: 40, height: 30 }, width: 40, height: 16 },
        { box: { x: 100, y: 80, width: 40, height: 18 }, width: 40, height: 16 },
      ],
      bounds,
    );
    expect(spots[0]).toEqual({ x: 100, y: 130, width: 40, height: 16 });
  });
});
