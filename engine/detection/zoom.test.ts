import { describe, expect, it } from 'vitest';
import type { ProductClass } from '../types.ts';
import { makeDetection } from './detection.ts';
import { quantile, zoomFor } from './zoom.ts';
import type { AutoZoomCard } from './zoom.ts';

const card: AutoZoomCard = {
  insectPx: 33.5,
  quantile: 0.5,
  minInsects: 4,
  tolerance: 1.25,
  min: 0.5,
  max: 2,
};
const at = (): number => 0.2;
/** `n` detections of `cls` with square boxes of `side` source pixels. */
const boxes = (n: number, side: number, cls: ProductClass = 'bee', score = 0.9) =>
  Array.from({ length: n }, (_, i) =>
    makeDetection(cls, score, { x: i * 2 * side, y: 0, width: side, height: side }),
  );

describe('zoomFor', () => {
  it('cannot judge from fewer honeybees than the card asks', () => {
    expect(zoomFor(boxes(3, 100), 0.3, card, at)).toBeUndefined();
    expect(zoomFor([], 0.3, card, at)).toBeUndefined();
  });

  it('leaves bees near the learnt size alone', () => {
    // 112 source px at 0.3 input px per source px: 33.6 px, as on the training clip
    expect(zoomFor(boxes(6, 112), 0.3, card, at)).toBe(1);
    expect(zoomFor(boxes(6, 112 * 1.2), 0.3, card, at)).toBe(1);
    expect(zoomFor(boxes(6, 112 / 1.2), 0.3, card, at)).toBe(1);
  });

  it('brings larger or smaller bees back to the learnt size, within its bounds', () => {
    expect(zoomFor(boxes(6, 112 * 1.5), 0.3, card, at)).toBeCloseTo(33.5 / (33.6 * 1.5), 3);
    expect(zoomFor(boxes(6, 112 / 1.5), 0.3, card, at)).toBeCloseTo((33.5 / 33.6) * 1.5, 3);
    expect(zoomFor(boxes(6, 112 * 4), 0.3, card, at)).toBe(0.5);
    expect(zoomFor(boxes(6, 112 / 4), 0.3, card, at)).toBe(2);
  });

  it('judges by the median honeybee, not by hornets or by boxes under their threshold', () => {
    const bees = [...boxes(3, 112, 'bee'), ...boxes(1, 112, 'drone'), ...boxes(1, 224, 'pollen')];
    const noise = [...boxes(20, 400, 'hornet'), ...boxes(20, 400, 'bee', 0.05)];
    expect(zoomFor([...bees, ...noise], 0.3, card, at)).toBe(1);
    const perClass = (cls: ProductClass): number => (cls === 'drone' ? 0.95 : 0.2);
    expect(zoomFor(boxes(4, 200, 'drone'), 0.3, card, perClass)).toBeUndefined();
  });

  it('can judge by an upper quantile, which half-hidden bees do not pull down', () => {
    const upper = { ...card, quantile: 0.75, insectPx: 38.7 };
    const whole = boxes(4, 129); // 38.7 px at 0.3
    const halfHidden = boxes(8, 60);
    expect(zoomFor([...whole, ...halfHidden], 0.3, upper, at)).toBe(1);
    expect(zoomFor([...whole, ...halfHidden], 0.3, card, at)).not.toBe(1);
  });
});

describe('quantile', () => {
  it('interpolates between the nearest two values', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.75)).toBe(4);
    expect(quantile([1, 2], 0.75)).toBe(1.75);
    expect(quantile([7], 0.75)).toBe(7);
    expect(quantile([1, 9], 0)).toBe(1);
    expect(quantile([1, 9], 1)).toBe(9);
  });
});
