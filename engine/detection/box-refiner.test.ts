import { describe, expect, it } from 'vitest';
import { refinedBox } from './box-refiner.ts';

describe('refinedBox', () => {
  // Box 20x10 centred on (50, 40).
  const box = { x1: 40, y1: 35, x2: 60, y2: 45 };

  it('reads a box crop answer in box sides from the box centre', () => {
    const out = refinedBox(box, [0.2, -0.5, Math.log(1.5), Math.log(0.8)], 2, 'box');
    // Centre (54, 35), 30 x 8.
    expect(out.x1).toBeCloseTo(39, 5);
    expect(out.x2).toBeCloseTo(69, 5);
    expect(out.y1).toBeCloseTo(31, 5);
    expect(out.y2).toBeCloseTo(39, 5);
    expect(refinedBox(box, [0, 0, 0, 0], 2, 'box')).toEqual(box);
  });

  it('reads a square crop answer in crop sides (context x the longer side)', () => {
    const out = refinedBox(box, [0.1, -0.05, Math.log(0.5), Math.log(0.25)], 2, 'square');
    // Crop side 40: centre (54, 38), 20 x 10.
    expect(out.x1).toBeCloseTo(44, 5);
    expect(out.x2).toBeCloseTo(64, 5);
    expect(out.y1).toBeCloseTo(33, 5);
    expect(out.y2).toBeCloseTo(43, 5);
  });

  it('keeps each side within 4x of the detected one and ignores non-finite answers', () => {
    const huge = refinedBox(box, [0, 0, 10, -10], 2, 'box');
    expect(huge.x2 - huge.x1).toBeCloseTo(80, 5);
    expect(huge.y2 - huge.y1).toBeCloseTo(2.5, 5);
    expect(refinedBox(box, [Number.NaN, 0, 0, 0], 2, 'box')).toEqual(box);
    const noSize = refinedBox(box, [0, 0, Number.NaN, Number.POSITIVE_INFINITY], 2, 'box');
    expect(noSize.x2 - noSize.x1).toBeCloseTo(20, 5);
    expect(noSize.y2 - noSize.y1).toBeCloseTo(10, 5);
  });
});
