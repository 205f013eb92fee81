import { describe, expect, it } from 'vitest';
import type { Detection, ProductClass } from '../types.ts';
import { entranceDensity } from './density.ts';
import { parseEntranceLine, parseEntrancePolygon } from './entrance.ts';

// A wide frame, as the hive board camera's: distances must be in pixels, not frame shares.
const SIZE = { width: 4000, height: 1000 };
const SLOT = parseEntrancePolygon([
  [0.45, 0.45],
  [0.55, 0.45],
  [0.55, 0.55],
  [0.45, 0.55],
]);

/** A 100 x 50 px box centred at pixel (x, y): bees 100 px long. */
function bee(x: number, y: number, cls: ProductClass = 'bee'): Detection {
  return { cls, score: 0.8, box: { x: x - 50, y: y - 25, width: 100, height: 50 } };
}

describe('entranceDensity', () => {
  it('counts honeybees within four bee lengths of the entrance, per frame: mean and peak', () => {
    // The slot spans x 1800-2200, y 450-550; four bee lengths are 400 px.
    const frames = [
      { detections: [bee(2000, 500), bee(2000, 900), bee(1450, 500)] }, // inside, 350 below, 350 left
      { detections: [bee(2650, 500), bee(2000, 500, 'pollen')] }, // 450 right: not near
      { detections: [] },
      // A wasp is no honeybee; the drone is 300 px left and 300 up of a corner: 424 px.
      { detections: [bee(2000, 500, 'wasp'), bee(1500, 150, 'drone')] },
    ];
    const density = entranceDensity(frames, SLOT, SIZE);
    expect(density.peakNear).toBe(3);
    expect(density.meanNear).toBeCloseTo((3 + 1 + 0 + 0) / 4);
  });

  it('measures a line entrance to its segment, and pads by the bee length seen', () => {
    const line = parseEntranceLine('0.25,0.5,0.75,0.5'); // x 1000-3000 at y 500
    const big = (x: number, y: number): Detection => ({
      cls: 'bee',
      score: 0.9,
      box: { x: x - 100, y: y - 50, width: 200, height: 100 },
    });
    // Bees 200 px long: 800 px reach. Beyond the line's end by 700 px is near; 900 is not.
    const frames = [{ detections: [big(3700, 500), big(3900, 500), big(2000, 100)] }];
    expect(entranceDensity(frames, line, SIZE)).toEqual({ meanNear: 2, peakNear: 2 });
  });

  it('is zero for a video with no honeybees or no frames', () => {
    expect(entranceDensity([], SLOT, SIZE)).toEqual({ meanNear: 0, peakNear: 0 });
    expect(entranceDensity([{ detections: [] }], SLOT, SIZE)).toEqual({
      meanNear: 0,
      peakNear: 0,
    });
  });
});
